// Image-generation vendors: image_vendor_a_compatible (OpenAI images), image_vendor_k and
// image_vendor_l (Replicate-style predictions). The "answer" is an image URL served by the mock
// itself; it carries the prompt so tests can see what was forwarded.
import { asObject, asString, unixSeconds } from '../text.js';
import { imageVendors } from '@palisade/core/vendors';
import type { LlmRoute, PlainRoute, RouteContext, VendorRoute } from '../types.js';
import { fromApi } from './api.js';

/** A 1x1 transparent PNG: what every mock image URL serves. */
export const PNG_1X1_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export function imageUrl(prompt: string, ctx: RouteContext): string {
  return `${ctx.origin}/images/img-${ctx.id}.png?prompt=${encodeURIComponent(prompt)}`;
}

const { vendor_a_compatible_generations: openAiImagesApi, vendor_k_generate: vendorKApi, vendor_l_predictions: predictionsApi, vendor_l_prediction: predictionApi } = imageVendors.apis;
const replicateError = predictionsApi.errorBody;
/** The mock's own image files answer errors as vendor_k does. */
const simpleError = vendorKApi.errorBody;

const openAiImages: LlmRoute = {
  kind: 'llm',
  vendor: 'image_vendor_a_compatible',
  name: 'image_vendor_a_compatible.generations',
  ...fromApi(openAiImagesApi),
  prompt: (ctx) => asString(ctx.body.prompt),
  defaultText: imageUrl,
  reply(text, ctx) {
    const n = typeof ctx.body.n === 'number' && ctx.body.n > 0 ? Math.min(Math.floor(ctx.body.n), 10) : 1;
    const item = ctx.body.response_format === 'b64_json' ? { b64_json: PNG_1X1_BASE64 } : { url: text };
    return { created: unixSeconds(ctx.now), data: Array.from({ length: n }, () => ({ ...item })) };
  },
  error: openAiImagesApi.errorBody,
};

const vendorK: LlmRoute = {
  kind: 'llm',
  vendor: 'image_vendor_k',
  name: 'image_vendor_k.generate',
  ...fromApi(vendorKApi),
  prompt: (ctx) => asString(ctx.body.prompt),
  defaultText: imageUrl,
  reply: (text, ctx) => ({ id: `img-${ctx.id}`, model: ctx.model, images: [{ url: text }] }),
  error: vendorKApi.errorBody,
};

const predictionKey = (id: string): string => `image_vendor_l.prediction:${id}`;

/** Predictions complete at once (as with `Prefer: wait`) and stay readable by GET. */
const vendorL: LlmRoute = {
  kind: 'llm',
  vendor: 'image_vendor_l',
  name: 'image_vendor_l.predictions',
  ...fromApi(predictionsApi),
  model: (ctx) => (typeof ctx.body.version === 'string' ? ctx.body.version : undefined),
  prompt: (ctx) => asString(asObject(ctx.body.input).prompt),
  defaultText: imageUrl,
  reply(text, ctx) {
    const id = `pred${ctx.id}`;
    const at = new Date(ctx.now).toISOString();
    const prediction = {
      id,
      model: 'mock/image-model',
      version: ctx.model,
      input: ctx.body.input,
      logs: '',
      output: [text],
      data_removed: false,
      error: null,
      status: 'succeeded',
      created_at: at,
      started_at: at,
      completed_at: at,
      urls: { get: `${ctx.origin}/v1/predictions/${id}`, cancel: `${ctx.origin}/v1/predictions/${id}/cancel` },
      metrics: { predict_time: 0.01 },
    };
    ctx.state.set(predictionKey(id), prediction);
    return prediction;
  },
  error: replicateError,
};

const getPrediction: PlainRoute = {
  kind: 'plain',
  vendor: 'image_vendor_l',
  name: 'image_vendor_l.prediction',
  ...fromApi(predictionApi),
  handle(ctx) {
    const found = ctx.state.get(predictionKey(ctx.params.id ?? ''));
    return found === undefined ? { status: 404, body: replicateError(404, 'Not found.') } : { body: found };
  },
  error: replicateError,
};

const imageFile: PlainRoute = {
  kind: 'plain',
  vendor: 'mock',
  name: 'mock.image',
  method: 'GET',
  paths: ['/images/:file'],
  handle: () => ({ headers: { 'content-type': 'image/png' }, body: Buffer.from(PNG_1X1_BASE64, 'base64') }),
  error: simpleError,
};

export const imageRoutes: VendorRoute[] = [openAiImages, vendorK, vendorL, getPrediction, imageFile];
