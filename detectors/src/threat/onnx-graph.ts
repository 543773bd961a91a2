// Builds the ONNX model with onnx-proto (the ONNX protobuf schema): the head's weights as initializers,
// an embedding-bag first layer (Gather rows by bucket index, scale by value, sum), the rest of the head,
// the maximum over the prompt's windows, and the calibration (Platt with rule inputs) folded in. One
// run scores one prompt: its windows are the batch, padded to the longest with value-0 entries, which
// add nothing whatever index they carry.
import { createRequire } from 'node:module';
import type { ThreatCalibration } from './calibration.js';
import type { ThreatHeadWeights } from './head.js';

type Onnx = typeof import('onnx-proto').onnx;
type Tensor = import('onnx-proto').onnx.ITensorProto;
type Node = import('onnx-proto').onnx.INodeProto;
type ValueInfo = import('onnx-proto').onnx.IValueInfoProto;
type Attribute = import('onnx-proto').onnx.IAttributeProto;
// onnx-proto is CommonJS whose exports ESM cannot name statically.
const { onnx } = createRequire(import.meta.url)('onnx-proto') as { onnx: Onnx };

export const THREAT_ONNX_INPUTS = { indices: 'indices', values: 'values', rules: 'rules' } as const;
export const THREAT_ONNX_OUTPUTS = { windowLogits: 'window_logits', probability: 'probability' } as const;
export const THREAT_ONNX_OPSET = 13;

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT32 = onnx.TensorProto.DataType.INT32;
const INT64 = onnx.TensorProto.DataType.INT64;

export function floatTensor(name: string, dims: number[], data: Float32Array): Tensor {
  // raw_data is little-endian by the ONNX spec, as are Float32Array bytes on every platform we ship on.
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

export function int64Tensor(name: string, values: number[]): Tensor {
  const data = BigInt64Array.from(values.map(BigInt));
  return { name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) };
}

export function valueInfo(name: string, elemType: number, dims: Array<string | number>): ValueInfo {
  return {
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  };
}

export function node(opType: string, inputs: string[], outputs: string[], attributes: Attribute[] = []): Node {
  return { opType, input: inputs, output: outputs, name: outputs[0] ?? opType, attribute: attributes };
}

export const intAttribute = (name: string, value: number): Attribute => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });
export const intsAttribute = (name: string, values: number[]): Attribute => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });

export interface ThreatOnnxModelOptions {
  /** Stored as the model's metadata_props (version, feature configuration…). */
  metadata?: Record<string, string>;
  docString?: string;
}

/**
 * The ONNX bytes of a head with its calibration. Inputs: `indices` int32 [windows, features], `values`
 * float [windows, features], and `rules` float [K] when the calibration has K > 0 rule weights.
 * Outputs: `window_logits` [windows] (the raw head) and `probability` [1] =
 * sigmoid(a · max(window_logits) + Σ c_k · rules_k + b), the calibrated prompt score.
 */
export function buildThreatOnnxModel(head: ThreatHeadWeights, calibration: ThreatCalibration, options: ThreatOnnxModelOptions = {}): Uint8Array {
  const initializers: Tensor[] = [];
  const nodes: Node[] = [];
  const { indices, values, rules } = THREAT_ONNX_INPUTS;
  const K = calibration.ruleWeights.length;

  initializers.push(int64Tensor('axis_features', [1]));
  initializers.push(floatTensor('b2', [], Float32Array.of(head.b2)));
  if (head.kind === 'linear') {
    initializers.push(floatTensor('w1', [head.dimensions], head.w1));
    nodes.push(node('Gather', ['w1', indices], ['gathered'], [intAttribute('axis', 0)]));
    nodes.push(node('Mul', ['gathered', values], ['weighted']));
    nodes.push(node('ReduceSum', ['weighted', 'axis_features'], ['summed'], [intAttribute('keepdims', 0)]));
    nodes.push(node('Add', ['summed', 'b2'], [THREAT_ONNX_OUTPUTS.windowLogits]));
  } else {
    const H = head.hidden;
    initializers.push(floatTensor('w1', [head.dimensions, H], head.w1));
    initializers.push(floatTensor('b1', [H], head.b1));
    initializers.push(floatTensor('w2', [H, 1], head.w2));
    initializers.push(int64Tensor('axis_last', [2]));
    initializers.push(int64Tensor('shape_windows', [-1]));
    nodes.push(node('Gather', ['w1', indices], ['gathered'], [intAttribute('axis', 0)]));
    nodes.push(node('Unsqueeze', [values, 'axis_last'], ['values_column']));
    nodes.push(node('Mul', ['gathered', 'values_column'], ['weighted']));
    nodes.push(node('ReduceSum', ['weighted', 'axis_features'], ['summed'], [intAttribute('keepdims', 0)]));
    nodes.push(node('Add', ['summed', 'b1'], ['hidden_pre']));
    nodes.push(node('Relu', ['hidden_pre'], ['hidden']));
    nodes.push(node('MatMul', ['hidden', 'w2'], ['out_column']));
    nodes.push(node('Reshape', ['out_column', 'shape_windows'], ['out_raw']));
    nodes.push(node('Add', ['out_raw', 'b2'], [THREAT_ONNX_OUTPUTS.windowLogits]));
  }

  // Calibration: the prompt logit is the highest window logit.
  initializers.push(floatTensor('calibration_a', [1], Float32Array.of(calibration.a)));
  initializers.push(floatTensor('calibration_b', [1], Float32Array.of(calibration.b)));
  nodes.push(node('ReduceMax', [THREAT_ONNX_OUTPUTS.windowLogits], ['prompt_logit'], [intsAttribute('axes', [0]), intAttribute('keepdims', 1)]));
  nodes.push(node('Mul', ['prompt_logit', 'calibration_a'], ['scaled']));
  let beforeBias = 'scaled';
  if (K > 0) {
    initializers.push(floatTensor('calibration_rules', [K], Float32Array.from(calibration.ruleWeights)));
    initializers.push(int64Tensor('axis_rules', [0]));
    nodes.push(node('Mul', [rules, 'calibration_rules'], ['rule_terms']));
    nodes.push(node('ReduceSum', ['rule_terms', 'axis_rules'], ['rule_sum'], [intAttribute('keepdims', 1)]));
    nodes.push(node('Add', ['scaled', 'rule_sum'], ['with_rules']));
    beforeBias = 'with_rules';
  }
  nodes.push(node('Add', [beforeBias, 'calibration_b'], ['calibrated']));
  nodes.push(node('Sigmoid', ['calibrated'], [THREAT_ONNX_OUTPUTS.probability]));

  const inputs = [valueInfo(indices, INT32, ['windows', 'features']), valueInfo(values, FLOAT, ['windows', 'features'])];
  if (K > 0) inputs.push(valueInfo(rules, FLOAT, [K]));
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'palisade-threat-train',
    producerVersion: '1',
    domain: 'io.palisade',
    modelVersion: 1,
    docString: options.docString ?? 'Palisade threat detector: hashed n-gram features of a prompt → calibrated jailbreak/injection probability',
    opsetImport: [{ domain: '', version: THREAT_ONNX_OPSET }],
    metadataProps: Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value })),
    graph: {
      name: `threat_${head.kind}`,
      node: nodes,
      initializer: initializers,
      input: inputs,
      output: [valueInfo(THREAT_ONNX_OUTPUTS.windowLogits, FLOAT, ['windows']), valueInfo(THREAT_ONNX_OUTPUTS.probability, FLOAT, [1])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
