// Reads a Marian model directory in the common export layout (Hugging Face Optimum / transformers.js):
// config.json, tokenizer_config.json, vocab.json, and encoder_model.onnx + decoder_model.onnx beside
// them or under onnx/. TRANSLATION_MODEL_DIR may be one such directory or a directory of them (one per
// language pair, e.g. opus-mt-ru-en/, opus-mt-de-en/).
import { access, readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createMarianTokenizer, type TranslationTokenizer } from './tokenizer.js';

export interface MarianGenerationConfig {
  decoderStartTokenId: number;
  eosTokenId: number;
  padTokenId: number;
  /** The model's own cap on generated tokens. */
  maxLength: number;
}

export interface MarianModelDir {
  dir: string;
  /** The directory's name, reported as `model`. */
  name: string;
  /** ISO 639 codes; `mul` as source means any. */
  sourceLang: string;
  targetLang: string;
  encoderPath: string;
  decoderPath: string;
  generation: MarianGenerationConfig;
  tokenizer: TranslationTokenizer;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function readJson(path: string): Promise<Record<string, unknown>> {
  const value: unknown = JSON.parse(await readFile(path, 'utf8'));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${path} is not a JSON object`);
  return value as Record<string, unknown>;
}

async function findOnnx(dir: string, name: string, preferFp16: boolean): Promise<string> {
  const candidates = [dir, join(dir, 'onnx')].flatMap((d) =>
    preferFp16 ? [join(d, `${name}_fp16.onnx`), join(d, `${name}.onnx`)] : [join(d, `${name}.onnx`)],
  );
  for (const path of candidates) if (await exists(path)) return path;
  throw new Error(`${dir}: no ${name}.onnx (looked in the directory and in onnx/)`);
}

const int = (value: unknown, field: string, fallback?: number): number => {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`config.json: ${field} must be a non-negative integer`);
  return value;
};

/** The pair from tokenizer_config.json (source_lang/target_lang), else from a name ending in -xx-yy. */
function languagePair(dir: string, tokenizerConfig: Record<string, unknown>): { sourceLang: string; targetLang: string } {
  const source = tokenizerConfig.source_lang;
  const target = tokenizerConfig.target_lang;
  if (typeof source === 'string' && typeof target === 'string') return { sourceLang: source.toLowerCase(), targetLang: target.toLowerCase() };
  const m = /([a-z]{2,3})-([a-z]{2,3})$/.exec(basename(dir).toLowerCase());
  if (m) return { sourceLang: m[1]!, targetLang: m[2]! };
  throw new Error(`${dir}: no source_lang/target_lang in tokenizer_config.json and no -xx-yy at the end of the name`);
}

export async function readMarianModelDir(dir: string, options: { preferFp16?: boolean } = {}): Promise<MarianModelDir> {
  const config = await readJson(join(dir, 'config.json'));
  const tokenizerConfig = (await exists(join(dir, 'tokenizer_config.json'))) ? await readJson(join(dir, 'tokenizer_config.json')) : {};
  const vocab = await readJson(join(dir, 'vocab.json'));
  const token = (key: string) => (typeof tokenizerConfig[key] === 'string' ? (tokenizerConfig[key] as string) : undefined);
  const tokenizer = createMarianTokenizer({
    vocab: vocab as Record<string, number>,
    ...(token('eos_token') ? { eosToken: token('eos_token')! } : {}),
    ...(token('unk_token') ? { unkToken: token('unk_token')! } : {}),
    ...(token('pad_token') ? { padToken: token('pad_token')! } : {}),
  });
  const padTokenId = int(config.pad_token_id, 'pad_token_id', tokenizer.special.pad);
  const generation: MarianGenerationConfig = {
    padTokenId,
    decoderStartTokenId: int(config.decoder_start_token_id, 'decoder_start_token_id', padTokenId),
    eosTokenId: int(config.eos_token_id, 'eos_token_id', tokenizer.special.eos),
    maxLength: int(config.max_length, 'max_length', 512),
  };
  const preferFp16 = options.preferFp16 ?? false;
  return {
    dir,
    name: basename(dir),
    ...languagePair(dir, tokenizerConfig),
    encoderPath: await findOnnx(dir, 'encoder_model', preferFp16),
    decoderPath: await findOnnx(dir, 'decoder_model', preferFp16),
    generation,
    tokenizer,
  };
}

/** The model directories under root: root itself when it holds config.json, else its sub-directories that do. */
export async function findMarianModelDirs(root: string): Promise<string[]> {
  if (await exists(join(root, 'config.json'))) return [root];
  const entries = await readdir(root, { withFileTypes: true });
  const dirs: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && (await exists(join(root, entry.name, 'config.json')))) dirs.push(join(root, entry.name));
  }
  if (dirs.length === 0) throw new Error(`${root}: no Marian model (config.json) in it or in its sub-directories`);
  return dirs;
}
