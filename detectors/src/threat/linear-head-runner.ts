// The built-in model's linear head, run in JavaScript on the CPU from the ONNX file's own weights. Its
// graph (onnx-graph.ts) is an embedding bag, a maximum over windows and a sigmoid: a few thousand
// multiply-adds per 2 KB prompt. Through onnxruntime's async run the same prompt cost about 0.25 ms more
// (tensor wrapping, the hop to its thread and back), as much as the features themselves, and more on a
// cold cache; here it costs microseconds. Only a graph exactly of that shape is taken: an MLP head, another
// producer's file, or any other graph keeps running in onnxruntime.
import { createRequire } from 'node:module';
import type { ThreatRunVectors } from './features.js';
import { THREAT_ONNX_INPUTS, THREAT_ONNX_OUTPUTS } from './onnx-graph.js';

type Onnx = typeof import('onnx-proto').onnx;
type TensorProto = import('onnx-proto').onnx.ITensorProto;
// onnx-proto is CommonJS whose exports ESM cannot name statically.
const { onnx } = createRequire(import.meta.url)('onnx-proto') as { onnx: Onnx };

export interface ThreatLinearHeadRunner {
  /** The calibrated probability of one run of windows, as the graph's `probability` output. */
  probability(run: ThreatRunVectors, windows: number, rules: Float32Array): number;
}

/** The graph onnx-graph.ts writes for a linear head, node by node (op type, inputs, outputs). */
const LINEAR_GRAPH: ReadonlyArray<readonly [string, readonly string[], readonly string[]]> = [
  ['Gather', ['w1', THREAT_ONNX_INPUTS.indices], ['gathered']],
  ['Mul', ['gathered', THREAT_ONNX_INPUTS.values], ['weighted']],
  ['ReduceSum', ['weighted', 'axis_features'], ['summed']],
  ['Add', ['summed', 'b2'], [THREAT_ONNX_OUTPUTS.windowLogits]],
  ['ReduceMax', [THREAT_ONNX_OUTPUTS.windowLogits], ['prompt_logit']],
  ['Mul', ['prompt_logit', 'calibration_a'], ['scaled']],
];
const WITH_RULES: typeof LINEAR_GRAPH = [
  ['Mul', [THREAT_ONNX_INPUTS.rules, 'calibration_rules'], ['rule_terms']],
  ['ReduceSum', ['rule_terms', 'axis_rules'], ['rule_sum']],
  ['Add', ['scaled', 'rule_sum'], ['with_rules']],
  ['Add', ['with_rules', 'calibration_b'], ['calibrated']],
];
const WITHOUT_RULES: typeof LINEAR_GRAPH = [['Add', ['scaled', 'calibration_b'], ['calibrated']]];
const SIGMOID: typeof LINEAR_GRAPH = [['Sigmoid', ['calibrated'], [THREAT_ONNX_OUTPUTS.probability]]];

function floats(tensor: TensorProto | undefined): Float32Array | undefined {
  if (!tensor || tensor.dataType !== onnx.TensorProto.DataType.FLOAT) return undefined;
  if (tensor.rawData && tensor.rawData.byteLength % 4 === 0) {
    // A copy (a decoded Buffer's slice() would be a view of its pool, at an offset that need not be
    // 4-aligned); raw_data is little-endian, as on every platform we ship on.
    return new Float32Array(new Uint8Array(tensor.rawData).buffer);
  }
  return tensor.floatData && tensor.floatData.length > 0 ? Float32Array.from(tensor.floatData) : undefined;
}

const sameNodes = (nodes: import('onnx-proto').onnx.INodeProto[], expected: typeof LINEAR_GRAPH): boolean =>
  nodes.length === expected.length &&
  nodes.every((n, i) => {
    const [op, inputs, outputs] = expected[i]!;
    return n.opType === op && (n.domain ?? '') === '' && String(n.input) === String(inputs) && String(n.output) === String(outputs);
  });

/**
 * The runner of a model file whose graph is the linear head's, else undefined. The attributes the
 * graph's nodes carry (axes, keepdims) are those onnx-graph.ts writes; a file that matches node for node
 * but differs there would still be read this way, which is why the detector checks the runner against
 * onnxruntime on probe prompts before it uses it.
 */
export function threatLinearHeadRunner(modelBytes: Uint8Array): ThreatLinearHeadRunner | undefined {
  const graph = onnx.ModelProto.decode(modelBytes).graph;
  if (!graph) return undefined;
  const nodes = graph.node ?? [];
  const hasRules = nodes.some((n) => n.input?.includes(THREAT_ONNX_INPUTS.rules));
  if (!sameNodes(nodes, [...LINEAR_GRAPH, ...(hasRules ? WITH_RULES : WITHOUT_RULES), ...SIGMOID])) return undefined;
  const initializers = new Map((graph.initializer ?? []).map((t) => [t.name ?? '', t]));
  const w1 = floats(initializers.get('w1'));
  const [b2, a, b] = ['b2', 'calibration_a', 'calibration_b'].map((name) => floats(initializers.get(name))?.[0]);
  const ruleWeights = hasRules ? floats(initializers.get('calibration_rules')) : new Float32Array(0);
  if (!w1 || b2 === undefined || a === undefined || b === undefined || !ruleWeights) return undefined;
  const dimensions = w1.length;
  return {
    // The run's windows end to end: onnxruntime's padding entries (index 0, value 0) would add only zeros.
    probability(run, windows, rules) {
      const { indices, values, ends } = run;
      let best = Number.NEGATIVE_INFINITY;
      for (let w = 0, start = 0; w < windows; start = ends[w]!, w++) {
        let sum = 0;
        for (let j = start, end = ends[w]!; j < end; j++) {
          const index = indices[j]!;
          // onnxruntime's Gather refuses an index out of range; so does this.
          if (index < 0 || index >= dimensions) throw new RangeError(`feature index ${index} outside the head's ${dimensions} rows`);
          sum += w1[index]! * values[j]!;
        }
        best = Math.max(best, sum + b2);
      }
      let z = a * best;
      for (let k = 0; k < ruleWeights.length; k++) z += rules[k]! * ruleWeights[k]!;
      return 1 / (1 + Math.exp(-(z + b)));
    },
  };
}
