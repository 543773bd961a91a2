// A tiny Hugging Face-style ONNX sequence classifier and real tokenizer.json files, written by tests
// into a temporary directory (no download): the same inputs and outputs as a transformers export
// (`input_ids`, `attention_mask` int64 [batch, seq] → `logits` float [batch, 2]). The model flags a
// prompt that contains one of the attack words: each token's embedding row is [0, 4] for an attack
// token and [0, 0] otherwise; the rows are masked by attention_mask, max-pooled over the sequence and
// added to a bias [0, -2], so logits are [0, 2] (attack probability 0.88) or [0, -2] (0.12).
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { floatTensor, int64Tensor, intAttribute, intsAttribute, node, valueInfo } from '../threat/onnx-graph.js';

type Onnx = typeof import('onnx-proto').onnx;
const { onnx } = createRequire(import.meta.url)('onnx-proto') as { onnx: Onnx };

export const TINY_SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;
/** The vocabulary after the four special tokens; ids follow this order in both tokenizers. */
export const TINY_WORDS = ['hello', 'world', 'please', 'summarize', 'the', 'report', 'i', 'would', 'like', 'a', 'smoothie', 'recipe', 'pineapple', 'zebra'] as const;
/** Words whose tokens push logit 1 up. */
export const TINY_ATTACK_WORDS = ['pineapple', 'zebra'] as const;
export const tinyTokenId = (word: string): number => TINY_SPECIAL_TOKENS.length + TINY_WORDS.indexOf(word as (typeof TINY_WORDS)[number]);

const special = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
const clsSepTemplate = {
  type: 'TemplateProcessing',
  single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
  pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
  special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
};

/** A BERT-style tokenizer.json: BertNormalizer (lower case), BertPreTokenizer, WordPiece with `##` pieces. */
export function tinyWordPieceTokenizer(): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  [...TINY_SPECIAL_TOKENS, ...TINY_WORDS].forEach((token, id) => (vocab[token] = id));
  vocab['##s'] = Object.keys(vocab).length;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_SPECIAL_TOKENS.map((t, id) => special(t, id)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: clsSepTemplate,
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

/** A SentencePiece-style tokenizer.json: Metaspace pre-tokenizer and a Unigram model with scores. */
export function tinyUnigramTokenizer(): Record<string, unknown> {
  const pieces: Array<[string, number]> = TINY_SPECIAL_TOKENS.map((t) => [t, 0]);
  for (const word of TINY_WORDS) pieces.push([`▁${word}`, -2 - word.length / 10]);
  pieces.push(['▁', -5], ['s', -6]);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_SPECIAL_TOKENS.map((t, id) => special(t, id)),
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: clsSepTemplate,
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 1, vocab: pieces, byte_fallback: false },
  };
}

export function tinyClassifierOnnx(vocabSize: number, attackIds: readonly number[]): Uint8Array {
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const table = new Float32Array(vocabSize * 2);
  for (const id of attackIds) table[id * 2 + 1] = 4;
  const graph = {
    name: 'tiny_sequence_classifier',
    initializer: [floatTensor('embeddings', [vocabSize, 2], table), floatTensor('classifier_bias', [2], Float32Array.of(0, -2)), int64Tensor('last_axis', [2])],
    node: [
      node('Gather', ['embeddings', 'input_ids'], ['token_rows'], [intAttribute('axis', 0)]),
      node('Cast', ['attention_mask'], ['mask_float'], [intAttribute('to', FLOAT)]),
      node('Unsqueeze', ['mask_float', 'last_axis'], ['mask_column']),
      node('Mul', ['token_rows', 'mask_column'], ['masked_rows']),
      node('ReduceMax', ['masked_rows'], ['pooled'], [intsAttribute('axes', [1]), intAttribute('keepdims', 0)]),
      node('Add', ['pooled', 'classifier_bias'], ['logits']),
    ],
    input: [valueInfo('input_ids', INT64, ['batch', 'sequence']), valueInfo('attention_mask', INT64, ['batch', 'sequence'])],
    output: [valueInfo('logits', FLOAT, ['batch', 2])],
  };
  const model = onnx.ModelProto.create({ irVersion: 7, producerName: 'palisade-tests', opsetImport: [{ domain: '', version: 13 }], graph });
  return onnx.ModelProto.encode(model).finish();
}

export interface TinyClassifierDirOptions {
  tokenizer?: 'wordpiece' | 'unigram';
  /** tokenizer_config.json's model_max_length (default 512); small values make windows testable. */
  maxLength?: number;
  /** Where the model goes: `model.onnx` (default) or `onnx/model.onnx`. */
  layout?: 'root' | 'onnx';
  id2label?: Record<string, string>;
  nameOrPath?: string;
}

/** Writes a complete model directory into a new temporary folder and answers its path. */
export async function writeTinyClassifierDir(options: TinyClassifierDirOptions = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'palisade-tiny-classifier-'));
  const tokenizer = options.tokenizer === 'unigram' ? tinyUnigramTokenizer() : tinyWordPieceTokenizer();
  const vocabSize = TINY_SPECIAL_TOKENS.length + TINY_WORDS.length + 2;
  const config = {
    _name_or_path: options.nameOrPath ?? 'palisade/tiny-injection-classifier',
    architectures: ['BertForSequenceClassification'],
    model_type: 'bert',
    id2label: options.id2label ?? { '0': 'BENIGN', '1': 'INJECTION' },
    label2id: { BENIGN: 0, INJECTION: 1 },
    max_position_embeddings: 512,
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: options.maxLength ?? 512, pad_token: '[PAD]', cls_token: '[CLS]', sep_token: '[SEP]', unk_token: '[UNK]' }));
  const modelDir = options.layout === 'onnx' ? join(dir, 'onnx') : dir;
  await mkdir(modelDir, { recursive: true });
  await writeFile(join(modelDir, 'model.onnx'), tinyClassifierOnnx(vocabSize, TINY_ATTACK_WORDS.map(tinyTokenId)));
  return dir;
}
