// Cyrillic ↔ Latin look-alike letters for the per-word script resolution (spec, "Gateway pipeline":
// homoglyph normalization, step 3).
//
// Source: Unicode Technical Standard #39 (Unicode Security Mechanisms), data file confusables.txt,
// read from the copy vendored in github.com/woodgern/confusables (commit d3ebb468, header stripped
// there, so the exact Unicode version is not recorded; its contents are of the Unicode 9–10 era). Two
// letters are look-alikes when confusables.txt gives them the same prototype (its "skeleton"): e.g.
// `0430 ; 0061` (а → a), or `0406 ; 006C` and `0049 ; 006C` (І and I both → l).
//
// `uts39` rows are exactly that. `small-capital` rows are our one documented extension: confusables.txt
// gives these lower-case Cyrillic letters a Latin SMALL CAPITAL as prototype (`0432 ; 0299` в → ʙ,
// `043D ; 029C` н → ʜ, `0442 ; 1D1B` т → ᴛ; к and м share a prototype with ᴋ and ᴍ), and a small capital
// is the lower-case-sized form of the Latin capital; mapping them to the plain lower-case letter is
// what a Latin reader sees in "рауpaл"-style spoofs. Letters whose prototype is a digit (б → 6,
// З → 3) are left out: digits inside words stay (leetspeak is the threat detector's business).
//
// Direction: every row rewrites the Cyrillic letter to the Latin one in a word resolved to Latin. Only
// `both` rows also rewrite the Latin letter to the Cyrillic one in a word resolved to Cyrillic: those
// whose Cyrillic letter belongs to the alphabets of the Slavic languages (Russian first: the first
// `both` row naming a Latin letter wins). A Latin d, q, w, v, l, b or h in a Cyrillic word would become
// a Komi, archaic or Caucasian letter, which helps no reader, so those rows are `to-latin`.
export type ConfusableOrigin = 'uts39' | 'small-capital';
export type ConfusableDirection = 'both' | 'to-latin';

/** [Cyrillic, Latin, origin, direction]: one code unit each (all BMP), so replacing keeps every offset. */
export const CYRILLIC_LATIN_CONFUSABLES: ReadonlyArray<readonly [string, string, ConfusableOrigin, ConfusableDirection]> = [
  // lower case, Russian alphabet first
  ['\u0430', 'a', 'uts39', 'both'], // а 0430 → a
  ['\u0441', 'c', 'uts39', 'both'], // с 0441 → c
  ['\u0435', 'e', 'uts39', 'both'], // е 0435 → e
  ['\u043E', 'o', 'uts39', 'both'], // о 043E → o
  ['\u0440', 'p', 'uts39', 'both'], // р 0440 → p
  ['\u0445', 'x', 'uts39', 'both'], // х 0445 → x
  ['\u0443', 'y', 'uts39', 'both'], // у 0443 → y
  ['\u0433', 'r', 'uts39', 'both'], // г 0433 → r
  // lower case, other Cyrillic letters
  ['\u0456', 'i', 'uts39', 'both'], // і 0456 → i
  ['\u0458', 'j', 'uts39', 'both'], // ј 0458 → j
  ['\u0455', 's', 'uts39', 'both'], // ѕ 0455 → s
  ['\u0501', 'd', 'uts39', 'to-latin'], // ԁ 0501 → d
  ['\u051B', 'q', 'uts39', 'to-latin'], // ԛ 051B → q
  ['\u051D', 'w', 'uts39', 'to-latin'], // ԝ 051D → w
  ['\u04BB', 'h', 'uts39', 'to-latin'], // һ 04BB → h
  ['\u0475', 'v', 'uts39', 'to-latin'], // ѵ 0475 → v
  ['\u04C0', 'l', 'uts39', 'to-latin'], // Ӏ 04C0 → l (palochka; written in lower-case text too)
  ['\u0461', 'w', 'uts39', 'to-latin'], // ѡ 0461 → w
  ['\u04AF', 'y', 'uts39', 'to-latin'], // ү 04AF → y
  ['\u04BD', 'e', 'uts39', 'to-latin'], // ҽ 04BD → e
  ['\uA647', 'i', 'uts39', 'to-latin'], // ꙇ A647 → i
  ['\u04CF', 'i', 'uts39', 'to-latin'], // ӏ 04CF → i (this data version; later ones say l)
  // upper case
  ['\u0410', 'A', 'uts39', 'both'], // А 0410 → A
  ['\u0412', 'B', 'uts39', 'both'], // В 0412 → B
  ['\u0421', 'C', 'uts39', 'both'], // С 0421 → C
  ['\u0415', 'E', 'uts39', 'both'], // Е 0415 → E
  ['\u041D', 'H', 'uts39', 'both'], // Н 041D → H
  ['\u041A', 'K', 'uts39', 'both'], // К 041A → K
  ['\u041C', 'M', 'uts39', 'both'], // М 041C → M
  ['\u041E', 'O', 'uts39', 'both'], // О 041E → O
  ['\u0420', 'P', 'uts39', 'both'], // Р 0420 → P
  ['\u0422', 'T', 'uts39', 'both'], // Т 0422 → T
  ['\u0425', 'X', 'uts39', 'both'], // Х 0425 → X
  ['\u0423', 'Y', 'uts39', 'both'], // У 0423 → Y
  ['\u0406', 'I', 'uts39', 'both'], // І 0406 → l, the prototype of I too
  ['\u0408', 'J', 'uts39', 'both'], // Ј 0408 → J
  ['\u0405', 'S', 'uts39', 'both'], // Ѕ 0405 → S
  ['\u050C', 'G', 'uts39', 'to-latin'], // Ԍ 050C → G
  ['\u0474', 'V', 'uts39', 'to-latin'], // Ѵ 0474 → V
  ['\u051C', 'W', 'uts39', 'to-latin'], // Ԝ 051C → W
  ['\u04AE', 'Y', 'uts39', 'to-latin'], // Ү 04AE → Y
  ['\u042C', 'b', 'uts39', 'to-latin'], // Ь 042C → b
  // lower-case Cyrillic with a Latin small-capital prototype (see above)
  ['\u043A', 'k', 'small-capital', 'both'], // к 043A ~ ᴋ 1D0B
  ['\u043C', 'm', 'small-capital', 'both'], // м 043C ~ ᴍ 1D0D
  ['\u0442', 't', 'small-capital', 'both'], // т 0442 → ᴛ 1D1B
  ['\u043D', 'h', 'small-capital', 'to-latin'], // н 043D → ʜ 029C
  ['\u0432', 'b', 'small-capital', 'to-latin'], // в 0432 → ʙ 0299
];

/** Code units below this bound can be looked up (all table letters are: the highest is U+A647). */
export const CONFUSABLE_TABLE_SIZE = 0xa700;

function buildMaps(): { toLatin: Uint16Array; toCyrillic: Uint16Array } {
  const toLatin = new Uint16Array(CONFUSABLE_TABLE_SIZE);
  const toCyrillic = new Uint16Array(CONFUSABLE_TABLE_SIZE);
  for (const [cyrillic, latin, , direction] of CYRILLIC_LATIN_CONFUSABLES) {
    const c = cyrillic.charCodeAt(0);
    const l = latin.charCodeAt(0);
    if (toLatin[c] === 0) toLatin[c] = l;
    if (direction === 'both' && toCyrillic[l] === 0) toCyrillic[l] = c;
  }
  return { toLatin, toCyrillic };
}

/** Code unit → code unit (0: no look-alike), built once from the table; constant after module load. */
export const CONFUSABLE_MAPS: { readonly toLatin: Readonly<Uint16Array>; readonly toCyrillic: Readonly<Uint16Array> } = buildMaps();
