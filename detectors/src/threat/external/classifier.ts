// The pretrained classifier of THREAT_MODEL_DIR: tokenizer windows (tokenizer.ts) → dynamic batches
// (batcher.ts) → one onnxruntime run per batch → softmax of `logits` → the attack labels' summed
// probability; a prompt's score is the highest over its windows.
import * as ort from 'onnxruntime-node';
import { createThreatSession, type ThreatDevice, type ThreatLogger } from '../device.js';
import { threatWorkerCount } from '../limits.js';
import { createDynamicBatcher } from './batcher.js';
import { externalModelDirError, loadExternalModelDir, type ExternalModelDir } from './model-dir.js';
import { createExternalTokenizer } from './tokenizer.js';

export interface ExternalClassifierOptions {
  device?: ThreatDevice;
  logger?: ThreatLogger;
  /** Windows per run (default 16). */
  maxBatch?: number;
  /** Longest wait for a batch to fill (default 2 ms). */
  maxWaitMs?: number;
  /** onnxruntime threads in one run (default one per core, at most four). */
  intraOpThreads?: number;
}

export interface ExternalClassifier {
  /** The model's name (config.json _name_or_path's last part, else the directory name). */
  readonly name: string;
  readonly device: ThreatDevice;
  readonly executionProviders: string[];
  readonly maxLength: number;
  readonly labels: string[];
  /** Probability of the attack label(s), the highest over the prompt's windows. */
  score(prompt: string, signal?: AbortSignal): Promise<{ score: number; windows: number }>;
  /** onnxruntime runs so far (each scores a batch of windows). */
  runs(): number;
  close(): Promise<void>;
}

const REQUIRED_INPUTS = ['input_ids', 'attention_mask'];
const OPTIONAL_ZERO_INPUTS = new Set(['token_type_ids']);

function checkSignature(model: ExternalModelDir, session: ort.InferenceSession): void {
  const file = model.modelPath.slice(model.dir.length).replace(/^[\\/]/, '');
  const missing = REQUIRED_INPUTS.filter((name) => !session.inputNames.includes(name));
  if (missing.length > 0) throw externalModelDirError(model.dir, file, `the model has no input ${missing.join(', ')} (inputs: ${session.inputNames.join(', ')})`);
  const unknown = session.inputNames.filter((name) => !REQUIRED_INPUTS.includes(name) && !OPTIONAL_ZERO_INPUTS.has(name));
  if (unknown.length > 0) throw externalModelDirError(model.dir, file, `the model needs inputs this detector cannot feed: ${unknown.join(', ')}`);
  if (!session.outputNames.includes('logits')) throw externalModelDirError(model.dir, file, `the model has no output logits (outputs: ${session.outputNames.join(', ')})`);
}

/** Softmax over each row of [batch, labels] logits; the attack labels' probabilities summed. */
export function attackProbabilities(logits: Float32Array, labels: number, attack: readonly number[]): number[] {
  const out: number[] = [];
  for (let row = 0; row * labels < logits.length; row++) {
    const values = logits.subarray(row * labels, (row + 1) * labels);
    const top = Math.max(...values);
    let total = 0;
    for (const v of values) total += Math.exp(v - top);
    out.push(attack.reduce((sum, k) => sum + Math.exp(values[k]! - top), 0) / total);
  }
  return out;
}

export async function createExternalClassifier(dir: string, options: ExternalClassifierOptions = {}): Promise<ExternalClassifier> {
  const model = await loadExternalModelDir(dir);
  const tokenizer = createExternalTokenizer(model);
  const logger = options.logger ?? { warn: (message: string) => process.stderr.write(`${message}\n`) };
  let opened;
  try {
    opened = await createThreatSession(model.modelBytes, { device: options.device ?? 'cpu', intraOpThreads: options.intraOpThreads ?? threatWorkerCount(), logger });
  } catch (error) {
    const file = model.modelPath.slice(model.dir.length).replace(/^[\\/]/, '');
    throw externalModelDirError(model.dir, file, `onnxruntime cannot load it (${(error as Error).message.split('\n')[0]})`);
  }
  const { session } = opened;
  checkSignature(model, session);
  const withTypeIds = session.inputNames.includes('token_type_ids');

  const batcher = createDynamicBatcher<number[], number>({
    maxBatch: options.maxBatch ?? 16,
    maxWaitMs: options.maxWaitMs ?? 2,
    async run(windows) {
      const width = Math.max(...windows.map((w) => w.length));
      const ids = new BigInt64Array(windows.length * width).fill(BigInt(tokenizer.padId));
      const mask = new BigInt64Array(windows.length * width);
      windows.forEach((w, row) => {
        w.forEach((id, col) => {
          ids[row * width + col] = BigInt(id);
          mask[row * width + col] = 1n;
        });
      });
      const dims = [windows.length, width];
      const feeds: Record<string, ort.Tensor> = { input_ids: new ort.Tensor('int64', ids, dims), attention_mask: new ort.Tensor('int64', mask, dims) };
      if (withTypeIds) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(ids.length), dims);
      const output = await session.run(feeds, ['logits']);
      return attackProbabilities(output.logits!.data as Float32Array, model.labels.length, model.attackLabels);
    },
  });

  return {
    name: model.name,
    device: opened.device,
    executionProviders: opened.executionProviders,
    maxLength: tokenizer.maxLength,
    labels: model.labels,
    async score(prompt, signal) {
      const windows = tokenizer.windows(prompt);
      const scores = await Promise.all(windows.map((w) => batcher.submit(w, signal)));
      return { score: Math.max(...scores), windows: windows.length };
    },
    runs: () => batcher.runs,
    close: () => session.release(),
  };
}
