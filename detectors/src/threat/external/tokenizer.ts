// Tokenization with @huggingface/tokenizers (pure JS, reads tokenizer.json as the Rust library writes
// it: WordPiece, BPE, Unigram…), and the windows a long prompt is cut into: the prompt's tokens without
// special tokens, in windows of the model's length minus its special tokens, each window overlapping
// the previous by a quarter, each wrapped in the special tokens the tokenizer's post-processor adds
// (e.g. [CLS] … [SEP]). So an instruction at the end of a long document is scored in a window of its own.
import { Tokenizer } from '@huggingface/tokenizers';
import { externalModelDirError, type ExternalModelDir } from './model-dir.js';

export interface ExternalTokenizer {
  /** Input ids of each window, special tokens included; at least one window (an empty prompt gives the specials alone). */
  windows(prompt: string): number[][];
  /** The id padding uses in a batch (masked out, so any id works; the tokenizer's pad token when it has one). */
  readonly padId: number;
  readonly maxLength: number;
}

function specialsAround(tokenizer: Tokenizer): { prefix: number[]; suffix: number[] } {
  // The post-processor's template, read off by encoding one word with and without special tokens.
  const bare: number[] = tokenizer.encode('a', { add_special_tokens: false }).ids;
  const full: number[] = tokenizer.encode('a', { add_special_tokens: true }).ids;
  const at = bare.length === 0 ? -1 : full.findIndex((_, i) => bare.every((id, k) => full[i + k] === id));
  if (at < 0) return { prefix: full, suffix: [] };
  return { prefix: full.slice(0, at), suffix: full.slice(at + bare.length) };
}

function padIdOf(tokenizer: Tokenizer, model: ExternalModelDir): number {
  const configured = model.tokenizerConfig.pad_token;
  const name = typeof configured === 'string' ? configured : typeof configured === 'object' && configured !== null ? (configured as { content?: unknown }).content : undefined;
  for (const candidate of [name, '[PAD]', '<pad>']) {
    const id = typeof candidate === 'string' ? tokenizer.token_to_id(candidate) : undefined;
    if (id !== undefined) return id;
  }
  return 0;
}

export function createExternalTokenizer(model: ExternalModelDir): ExternalTokenizer {
  let tokenizer: Tokenizer;
  let specials: { prefix: number[]; suffix: number[] };
  try {
    tokenizer = new Tokenizer(model.tokenizerJson, model.tokenizerConfig);
    specials = specialsAround(tokenizer);
  } catch (error) {
    throw externalModelDirError(model.dir, 'tokenizer.json', `the tokenizer cannot be built (${(error as Error).message})`);
  }
  const content = model.maxLength - specials.prefix.length - specials.suffix.length;
  if (content < 4) throw externalModelDirError(model.dir, 'tokenizer_config.json', `model_max_length ${model.maxLength} leaves no room beside the special tokens`);
  const step = content - Math.floor(content / 4);
  return {
    padId: padIdOf(tokenizer, model),
    maxLength: model.maxLength,
    windows(prompt) {
      const ids = tokenizer.encode(prompt, { add_special_tokens: false }).ids;
      const windows: number[][] = [];
      for (let start = 0; ; start += step) {
        windows.push([...specials.prefix, ...ids.slice(start, start + content), ...specials.suffix]);
        if (start + content >= ids.length) break;
      }
      return windows;
    },
  };
}
