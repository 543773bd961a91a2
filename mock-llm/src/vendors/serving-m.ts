// serving_vendor_m (Triton / KServe v2 inference protocol): tensors in, tensors out. Text models
// answer an output named `text`; image models (by requested output name or model name) answer
// `generated_image` with an image URL.
import { asArray, asObject, asString } from '../text.js';
import { servingVendorM } from '@palisade/core/vendors';
import type { LlmRoute, RouteContext, VendorRoute } from '../types.js';
import { fromApi } from './api.js';
import { imageUrl } from './images.js';

const IMAGE_MODEL = /image|diffusion|sdxl|flux|dall-?e|txt2img|img/i;
const PROMPT_INPUTS = ['prompt', 'text_input', 'text', 'input'];

const tritonError = servingVendorM.errorBody;

function inputs(ctx: RouteContext): Record<string, unknown>[] {
  return asArray(ctx.body.inputs).map(asObject);
}

/** data[0] of the prompt tensor (by its usual names, else the first BYTES input). */
function prompt(ctx: RouteContext): string {
  const all = inputs(ctx);
  const named = PROMPT_INPUTS.map((n) => all.find((i) => i.name === n)).find((i) => i !== undefined);
  const tensor = named ?? all.find((i) => i.datatype === 'BYTES');
  return tensor ? asString(asArray(tensor.data)[0]) : '';
}

/** Output names: those the request asks for, else decided by the model name. */
function outputNames(ctx: RouteContext): string[] {
  const asked = asArray(ctx.body.outputs)
    .map((o) => asString(asObject(o).name))
    .filter((n) => n !== '');
  if (asked.length > 0) return asked;
  return [isImage(ctx) ? 'generated_image' : 'text'];
}

function isImage(ctx: RouteContext): boolean {
  return IMAGE_MODEL.test(ctx.params.model ?? '') || asArray(ctx.body.outputs).some((o) => asObject(o).name === 'generated_image');
}

const infer: LlmRoute = {
  kind: 'llm',
  vendor: 'serving_vendor_m',
  name: 'serving_vendor_m.infer',
  ...fromApi(servingVendorM.apis.infer),
  model: (ctx) => ctx.params.model,
  prompt,
  defaultText: (p, ctx) => (isImage(ctx) ? imageUrl(p, ctx) : undefined),
  reply(text, ctx) {
    const body: Record<string, unknown> = {
      model_name: ctx.model,
      model_version: ctx.params.version ?? '1',
      outputs: outputNames(ctx).map((name) => ({ name, datatype: 'BYTES', shape: [1], data: [text] })),
    };
    if (typeof ctx.body.id === 'string') body.id = ctx.body.id; // the protocol echoes the request id
    return body;
  },
  error: tritonError,
};

const ready = (name: 'ready' | 'live' | 'model_ready'): VendorRoute => ({
  kind: 'plain',
  vendor: 'serving_vendor_m',
  name: `serving_vendor_m.${name}`,
  ...fromApi(servingVendorM.apis[name]),
  handle: () => ({ body: { ready: true, live: true } }),
  error: tritonError,
});

export const servingMRoutes: VendorRoute[] = [infer, ready('ready'), ready('live'), ready('model_ready')];
