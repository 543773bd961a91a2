// Text ↔ token ids for a Marian model exported in the common layout (vocab.json: piece → id, shared by
// source and target; special pieces </s>, <unk>, <pad>).
//
// Marian models segment with SentencePiece (source.spm/target.spm, unigram models). No SentencePiece
// runtime is installed here, so this is the documented substitute: SentencePiece's own pre-processing
// (NFKC, whitespace collapsed, "▁" for each space and before the first word) and then a greedy
// longest-match over the pieces of vocab.json. Every piece it emits is a real vocabulary piece and
// decoding is exact; the segmentation can differ from the unigram model's best one on some words
// (it prefers long pieces), which a model tolerates but may translate slightly worse.
export const WORD_BOUNDARY = '\u2581';

export interface MarianSpecialIds {
  eos: number;
  unk: number;
  pad: number;
}

export interface TranslationTokenizer {
  readonly special: MarianSpecialIds;
  readonly vocabSize: number;
  /** Ids of the text, ending with </s>. */
  encode(text: string): number[];
  /** The text of ids, special pieces left out. */
  decode(ids: readonly number[]): string;
}

export interface MarianVocabulary {
  /** vocab.json's map. */
  vocab: Readonly<Record<string, number>>;
  eosToken?: string;
  unkToken?: string;
  padToken?: string;
}

/** SentencePiece's nmt_nfkc-like pre-processing: NFKC, whitespace runs → one "▁", one "▁" in front. */
export function toPieceText(text: string): string {
  const words = text.normalize('NFKC').split(/\s+/u).filter((w) => w.length > 0);
  return words.length === 0 ? '' : WORD_BOUNDARY + words.join(WORD_BOUNDARY);
}

export function createMarianTokenizer(vocabulary: MarianVocabulary): TranslationTokenizer {
  const byPiece = new Map<string, number>();
  let maxId = -1;
  let longest = 1;
  for (const [piece, id] of Object.entries(vocabulary.vocab)) {
    if (!Number.isInteger(id) || id < 0) throw new Error(`vocab.json: the id of "${piece}" is not a non-negative integer`);
    byPiece.set(piece, id);
    if (id > maxId) maxId = id;
    if (piece.length > longest) longest = piece.length;
  }
  const byId: string[] = [];
  for (const [piece, id] of byPiece) if (byId[id] === undefined) byId[id] = piece;
  const idOf = (piece: string, role: string): number => {
    const id = byPiece.get(piece);
    if (id === undefined) throw new Error(`vocab.json has no ${role} piece "${piece}"`);
    return id;
  };
  const special: MarianSpecialIds = {
    eos: idOf(vocabulary.eosToken ?? '</s>', 'end-of-sentence'),
    unk: idOf(vocabulary.unkToken ?? '<unk>', 'unknown'),
    pad: idOf(vocabulary.padToken ?? '<pad>', 'padding'),
  };
  const specialIds = new Set([special.eos, special.unk, special.pad]);
  // Control pieces like <unk> or >>fra<< must not match inside text.
  const isControl = (piece: string) => /^<.*>$|^>>.*<<$/.test(piece);
  const textPieces = new Map([...byPiece].filter(([piece]) => !isControl(piece)));

  return {
    special,
    vocabSize: maxId + 1,
    encode(text) {
      const s = toPieceText(text);
      const ids: number[] = [];
      let i = 0;
      while (i < s.length) {
        let found = -1;
        let length = 0;
        for (let l = Math.min(longest, s.length - i); l >= 1; l--) {
          const id = textPieces.get(s.slice(i, i + l));
          if (id !== undefined) {
            found = id;
            length = l;
            break;
          }
        }
        if (found < 0) {
          // No piece starts with this character: one <unk> for the whole code point.
          const cp = s.codePointAt(i)!;
          length = cp > 0xffff ? 2 : 1;
          found = special.unk;
          if (ids[ids.length - 1] === special.unk) {
            i += length;
            continue;
          }
        }
        ids.push(found);
        i += length;
      }
      ids.push(special.eos);
      return ids;
    },
    decode(ids) {
      let out = '';
      for (const id of ids) {
        if (specialIds.has(id)) continue;
        out += byId[id] ?? '';
      }
      return out.split(WORD_BOUNDARY).filter((w) => w.length > 0).join(' ');
    },
  };
}
