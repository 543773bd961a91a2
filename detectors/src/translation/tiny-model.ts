// A toy Marian export, written as real ONNX files in the real layout, for tests and offline demos
// where no model can be downloaded. It "translates" word by word through a fixed table:
// - encoder_model.onnx: last_hidden_state = one-hot(input_ids) × attention_mask (a Gather of an
//   identity embedding);
// - decoder_model.onnx: logits[b, t, :] = encoder_hidden_states[b, t, :] × W, where W[i, table(i)] = 10,
//   so the token the decoder picks at position t is the table's image of source token t, and the
//   source's </s> maps to </s>, which ends the decoding.
// Every real step runs: the tokenizer on vocab.json, the encoder once, the decoder on a growing prefix,
// arg-max of the last position, <pad> excluded, the stop at </s>, and decoding back to text.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type OnnxModule = typeof import('onnx-proto');
// onnx-proto is CommonJS whose exports ESM cannot name statically.
const { onnx } = createRequire(import.meta.url)('onnx-proto') as OnnxModule;

export interface TinyTranslationModelSpec {
  /** Source piece → target piece, e.g. { '▁привет': '▁hello' }. Pieces carry the "▁" word marks. */
  table: Readonly<Record<string, string>>;
  sourceLang: string;
  targetLang: string;
}

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

function floatTensor(name: string, dims: number[], data: Float32Array): import('onnx-proto').onnx.ITensorProto {
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function int64Tensor(name: string, values: number[]): import('onnx-proto').onnx.ITensorProto {
  const data = BigInt64Array.from(values.map(BigInt));
  return { name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) };
}

function valueInfo(name: string, elemType: number, dims: Array<string | number>): import('onnx-proto').onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } } };
}

function node(opType: string, inputs: string[], outputs: string[], attributes: import('onnx-proto').onnx.IAttributeProto[] = []): import('onnx-proto').onnx.INodeProto {
  return { opType, input: inputs, output: outputs, name: outputs[0] ?? opType, attribute: attributes };
}

const intAttribute = (name: string, value: number): import('onnx-proto').onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });

function model(graph: import('onnx-proto').onnx.IGraphProto): Uint8Array {
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({ irVersion: 7, producerName: 'palisade-tiny-marian', opsetImport: [{ domain: '', version: 13 }], graph }),
  ).finish();
}

/** Masked one-hot embedding of the source (shared by both graphs' mask handling). */
function maskNodes(mask: string, into: string, out: string): import('onnx-proto').onnx.INodeProto[] {
  return [
    node('Cast', [mask], [`${out}_mask_f`], [intAttribute('to', FLOAT)]),
    node('Unsqueeze', [`${out}_mask_f`, 'axis_2'], [`${out}_mask_3d`]),
    node('Mul', [into, `${out}_mask_3d`], [out]),
  ];
}

/** Writes config.json, tokenizer_config.json, vocab.json, encoder_model.onnx and decoder_model.onnx into dir. */
export async function writeTinyTranslationModel(dir: string, spec: TinyTranslationModelSpec): Promise<{ vocab: Record<string, number> }> {
  const pieces = ['</s>', '<unk>'];
  for (const [from, to] of Object.entries(spec.table)) for (const p of [from, to]) if (!pieces.includes(p)) pieces.push(p);
  pieces.push('<pad>');
  const vocab = Object.fromEntries(pieces.map((p, i) => [p, i]));
  const V = pieces.length;
  const pad = V - 1;

  const identity = new Float32Array(V * V);
  for (let i = 0; i < V; i++) identity[i * V + i] = 1;
  const W = new Float32Array(V * V);
  const image = (i: number) => {
    if (i === 0) return 0; // </s> → </s>
    const to = spec.table[pieces[i]!];
    return to === undefined ? 1 : vocab[to]!; // unknown → <unk>
  };
  for (let i = 0; i < V; i++) W[i * V + image(i)] = 10;
  // <pad> gets the highest score of all for every row: decoding must exclude it to translate at all.
  for (let i = 0; i < V; i++) W[i * V + pad] = 20;

  const encoder = model({
    name: 'tiny_marian_encoder',
    initializer: [floatTensor('embedding', [V, V], identity), int64Tensor('axis_2', [2])],
    node: [node('Gather', ['embedding', 'input_ids'], ['embedded'], [intAttribute('axis', 0)]), ...maskNodes('attention_mask', 'embedded', 'last_hidden_state')],
    input: [valueInfo('input_ids', INT64, ['batch', 'source']), valueInfo('attention_mask', INT64, ['batch', 'source'])],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch', 'source', V])],
  });
  const decoder = model({
    name: 'tiny_marian_decoder',
    initializer: [floatTensor('W', [V, V], W), int64Tensor('axis_2', [2]), int64Tensor('dim_1', [1]), int64Tensor('zero', [0]), int64Tensor('axes_1', [1])],
    node: [
      ...maskNodes('encoder_attention_mask', 'encoder_hidden_states', 'masked'),
      node('Shape', ['input_ids'], ['target_shape']),
      node('Gather', ['target_shape', 'dim_1'], ['target_length'], [intAttribute('axis', 0)]),
      node('Slice', ['masked', 'zero', 'target_length', 'axes_1'], ['aligned']),
      node('MatMul', ['aligned', 'W'], ['logits']),
    ],
    input: [
      valueInfo('input_ids', INT64, ['batch', 'target']),
      valueInfo('encoder_hidden_states', FLOAT, ['batch', 'source', V]),
      valueInfo('encoder_attention_mask', INT64, ['batch', 'source']),
    ],
    output: [valueInfo('logits', FLOAT, ['batch', 'target', V])],
  });

  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'vocab.json'), JSON.stringify(vocab));
  await writeFile(join(dir, 'config.json'), JSON.stringify({ model_type: 'marian', decoder_start_token_id: pad, pad_token_id: pad, eos_token_id: 0, max_length: 64, vocab_size: V }));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ source_lang: spec.sourceLang, target_lang: spec.targetLang, eos_token: '</s>', unk_token: '<unk>', pad_token: '<pad>' }));
  await writeFile(join(dir, 'encoder_model.onnx'), encoder);
  await writeFile(join(dir, 'decoder_model.onnx'), decoder);
  return { vocab };
}
