// Greedy decoding with a Marian encoder/decoder pair of onnxruntime sessions. The encoder runs once;
// the decoder (decoder_model.onnx: no key/value cache) runs on the whole target prefix at every step
// and the next token is the arg-max of the last position's logits, <pad> excluded (Marian's generation
// bans it), until </s> or the token budget.
import * as ort from 'onnxruntime-node';
import type { MarianGenerationConfig } from './model-dir.js';

export interface MarianSessions {
  encoder: ort.InferenceSession;
  decoder: ort.InferenceSession;
}

/** The inputs we feed; a decoder that needs others (a merged decoder's past_key_values) is refused at load. */
export const ENCODER_INPUTS = ['input_ids', 'attention_mask'] as const;
export const DECODER_INPUTS = ['input_ids', 'encoder_hidden_states', 'encoder_attention_mask'] as const;

export function checkSessionInputs(sessions: MarianSessions): void {
  const extra = (names: readonly string[], known: readonly string[]) => names.filter((n) => !known.includes(n));
  const encoderExtra = extra(sessions.encoder.inputNames, ENCODER_INPUTS);
  const decoderExtra = extra(sessions.decoder.inputNames, DECODER_INPUTS);
  if (encoderExtra.length > 0) throw new Error(`encoder needs inputs this service does not feed: ${encoderExtra.join(', ')}`);
  if (decoderExtra.length > 0) throw new Error(`decoder needs inputs this service does not feed (use decoder_model.onnx, not a merged or with-past one): ${decoderExtra.join(', ')}`);
  if (!sessions.encoder.inputNames.includes('input_ids') || !sessions.decoder.inputNames.includes('input_ids')) {
    throw new Error('encoder and decoder must take input_ids');
  }
  if (!sessions.decoder.outputNames.includes('logits')) throw new Error('decoder has no logits output');
}

const int64 = (values: readonly number[]) => new ort.Tensor('int64', BigInt64Array.from(values, BigInt), [1, values.length]);

/** IEEE 754 half → number (onnxruntime hands float16 tensors over as their raw 16-bit words). */
export function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** Arg-max of logits[offset, offset + size), skipping one id. */
export function argmaxRow(logits: ort.Tensor, offset: number, size: number, skip: number): number {
  const data = logits.data;
  const half = logits.type === 'float16';
  if (!half && logits.type !== 'float32') throw new Error(`decoder logits of type ${logits.type} are not supported`);
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let v = 0; v < size; v++) {
    if (v === skip) continue;
    const raw = (data as Float32Array | Uint16Array)[offset + v]!;
    const value = half ? halfToNumber(raw) : raw;
    if (value > bestValue || best < 0) {
      best = v;
      bestValue = value;
    }
  }
  return best;
}

export interface GreedyOptions {
  maxNewTokens: number;
  signal?: AbortSignal | undefined;
}

/** Target ids (without the start token and without </s>) for source ids ending in </s>. */
export async function greedyDecode(sessions: MarianSessions, sourceIds: readonly number[], config: MarianGenerationConfig, options: GreedyOptions): Promise<number[]> {
  const mask = int64(sourceIds.map(() => 1));
  const encoderFeeds: Record<string, ort.Tensor> = { input_ids: int64(sourceIds) };
  if (sessions.encoder.inputNames.includes('attention_mask')) encoderFeeds.attention_mask = mask;
  const encoded = await sessions.encoder.run(encoderFeeds);
  const hidden = encoded[sessions.encoder.outputNames[0]!];
  if (!hidden) throw new Error('encoder gave no output');

  const target = [config.decoderStartTokenId];
  for (let step = 0; step < options.maxNewTokens; step++) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    const feeds: Record<string, ort.Tensor> = { input_ids: int64(target), encoder_hidden_states: hidden };
    if (sessions.decoder.inputNames.includes('encoder_attention_mask')) feeds.encoder_attention_mask = mask;
    const out = await sessions.decoder.run(feeds, ['logits']);
    const logits = out.logits;
    if (!logits) throw new Error('decoder gave no logits');
    const vocab = logits.dims[logits.dims.length - 1]!;
    const next = argmaxRow(logits, (target.length - 1) * vocab, vocab, config.padTokenId);
    if (next === config.eosTokenId) break;
    target.push(next);
  }
  return target.slice(1);
}
