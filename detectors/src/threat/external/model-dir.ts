// Reads a Hugging Face-format ONNX sequence-classification directory (what `optimum-cli export onnx`
// writes, or a hub repository's onnx/ folder): config.json, tokenizer.json, tokenizer_config.json when
// present, and model.onnx or onnx/model.onnx. Everything is checked before the model is used, and any
// problem is one ConfigError line that names THREAT_MODEL_DIR, the file and what is wrong with it.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ConfigError } from '@palisade/core';

/**
 * Label names that mean "attack": INJECTION, JAILBREAK, MALICIOUS, UNSAFE, ATTACK (any case, as a
 * word inside the label, e.g. `prompt_injection`). When no label has such a name, a two-label model
 * whose labels are LABEL_0/LABEL_1 (an export without names) takes LABEL_1 as the attack, as its model
 * cards say. BENIGN, SAFE and LABEL_0 are never attacks.
 */
const ATTACK_WORDS = /(^|[^a-z])(injection|jailbreak|malicious|unsafe|attack)([^a-z]|$)/i;

export interface ExternalModelDir {
  dir: string;
  /** The model's name in model_version: config.json's _name_or_path's last part, else the directory's name. */
  name: string;
  modelPath: string;
  modelBytes: Uint8Array;
  tokenizerJson: Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  labels: string[];
  /** Indices into the logits whose probabilities add up to the attack score. */
  attackLabels: number[];
  /** Tokens per window, special tokens included. */
  maxLength: number;
}

/** Tokens per window when neither tokenizer_config.json nor config.json says: BERT/DeBERTa's 512. */
export const EXTERNAL_DEFAULT_MAX_LENGTH = 512;

function fail(dir: string, file: string, problem: string): never {
  throw externalModelDirError(dir, file, problem);
}

async function readOptional(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function readJson(dir: string, file: string, required: boolean): Promise<Record<string, unknown> | undefined> {
  const bytes = await readOptional(join(dir, file));
  if (!bytes) return required ? fail(dir, file, 'missing') : undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    fail(dir, file, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail(dir, file, 'not a JSON object');
  return parsed as Record<string, unknown>;
}

/** The labels in index order from id2label, and which of them are attacks (rule above). */
export function attackLabelsOf(id2label: unknown): { labels: string[]; attack: number[] } | string {
  if (typeof id2label !== 'object' || id2label === null || Array.isArray(id2label)) return 'has no id2label object';
  const entries = Object.entries(id2label as Record<string, unknown>);
  const labels: string[] = [];
  for (const [key, value] of entries) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= entries.length || typeof value !== 'string') return `id2label entry ${JSON.stringify(key)} is not index → name`;
    labels[index] = value;
  }
  if (labels.length < 2 || labels.some((l) => l === undefined)) return 'id2label needs at least two labels numbered from 0';
  let attack = labels.flatMap((label, i) => (ATTACK_WORDS.test(label) ? [i] : []));
  if (attack.length === 0 && labels.length === 2 && labels[1] === 'LABEL_1') attack = [1];
  if (attack.length === 0) return `no attack label in id2label (${labels.join(', ')}); expected a name containing INJECTION, JAILBREAK, MALICIOUS, UNSAFE or ATTACK, or LABEL_1 of two`;
  return { labels, attack };
}

function maxLengthOf(tokenizerConfig: Record<string, unknown>, config: Record<string, unknown>): number {
  // transformers writes a huge sentinel (1e30) for "unset"; a real limit is a modest integer.
  const fromTokenizer = tokenizerConfig.model_max_length;
  if (typeof fromTokenizer === 'number' && Number.isInteger(fromTokenizer) && fromTokenizer >= 8 && fromTokenizer <= 65_536) return fromTokenizer;
  const positions = config.max_position_embeddings;
  if (typeof positions === 'number' && Number.isInteger(positions) && positions >= 8) return Math.min(positions, EXTERNAL_DEFAULT_MAX_LENGTH);
  return EXTERNAL_DEFAULT_MAX_LENGTH;
}

export async function loadExternalModelDir(dir: string): Promise<ExternalModelDir> {
  const config = (await readJson(dir, 'config.json', true))!;
  const labels = attackLabelsOf(config.id2label);
  if (typeof labels === 'string') fail(dir, 'config.json', labels);
  const tokenizerJson = (await readJson(dir, 'tokenizer.json', true))!;
  if (typeof tokenizerJson.model !== 'object' || tokenizerJson.model === null) fail(dir, 'tokenizer.json', 'has no "model" (not a Hugging Face tokenizers file)');
  const tokenizerConfig = (await readJson(dir, 'tokenizer_config.json', false)) ?? {};
  let modelPath = join(dir, 'model.onnx');
  let modelBytes = await readOptional(modelPath);
  if (!modelBytes) {
    modelPath = join(dir, 'onnx', 'model.onnx');
    modelBytes = await readOptional(modelPath);
  }
  if (!modelBytes) fail(dir, 'model.onnx', 'missing (looked for model.onnx and onnx/model.onnx)');
  const named = typeof config._name_or_path === 'string' && config._name_or_path.trim() !== '' ? basename(config._name_or_path.trim()) : basename(dir);
  return {
    dir,
    name: named,
    modelPath,
    modelBytes: new Uint8Array(modelBytes.buffer, modelBytes.byteOffset, modelBytes.byteLength),
    tokenizerJson,
    tokenizerConfig,
    labels: labels.labels,
    attackLabels: labels.attack,
    maxLength: maxLengthOf(tokenizerConfig, config),
  };
}

/** The same one-line failure for problems found after the files were read (tokenizer, ONNX session). */
export function externalModelDirError(dir: string, file: string, problem: string): ConfigError {
  return new ConfigError(`THREAT_MODEL_DIR ${dir}: ${file}: ${problem}`, 'THREAT_MODEL_DIR');
}
