// The labeled eval corpus: deterministic for a seed. Templates are filled with generated entities and
// decoys; each sample records the span and type of every entity it holds. A sample is scanned as a
// response (direction "output"), so every type applies.
import type { PiiType } from '@palisade/core';
import { decoy } from './decoys.js';
import { leakSample } from './leaks.js';
import { createRng, type Rng } from './rng.js';
import { DECOY_TEMPLATES, NAMES_EN, NAMES_RU, TEMPLATES, type Template } from './templates.js';
import * as values from './values.js';

export interface GoldEntity {
  type: PiiType;
  start: number;
  end: number;
}

export interface PiiEvalSample {
  id: number;
  family: string;
  language: 'ru' | 'en';
  text: string;
  systemPrompt?: string;
  entities: GoldEntity[];
}

type Filler = (rng: Rng, language: 'ru' | 'en') => { generated: values.Generated; type?: PiiType };

const entity = (type: PiiType, make: (rng: Rng, language: 'ru' | 'en') => values.Generated | string): Filler => (rng, language) => {
  const made = make(rng, language);
  return { generated: typeof made === 'string' ? { text: made } : made, type };
};

const FILLERS: Readonly<Record<string, Filler>> = {
  EMAIL: entity('EMAIL', values.email),
  PHONE_RU: entity('PHONE_NUMBER', values.russianPhone),
  PHONE_INTL: entity('PHONE_NUMBER', (rng) => (rng.chance(0.3) ? values.russianPhone(rng) : values.internationalPhone(rng))),
  PHONE_US: entity('PHONE_NUMBER', (rng) => (rng.chance(0.6) ? values.usNationalPhone(rng) : values.internationalPhone(rng))),
  CARD: entity('CREDIT_CARD', (rng) => values.formatCard(rng, values.cardDigits(rng))),
  INN10: entity('INN', (rng) => values.inn(rng, 10)),
  INN12: entity('INN', (rng) => values.inn(rng, 12)),
  SNILS: entity('SNILS', (rng) => values.formatSnils(rng, values.snilsDigits(rng))),
  PASSPORT: entity('PASSPORT_RF', values.passport),
  API_KEY: entity('API_KEY', values.apiKey),
  GITHUB: entity('GITHUB_TOKEN', values.githubToken),
  JWT: entity('JWT', values.jwt),
  DB_URL: entity('DATABASE_URL', values.databaseUrl),
  PRIVATE_KEY: entity('PRIVATE_KEY', (rng) => values.privateKey(rng, false)),
  PRIVATE_KEY_ESC: entity('PRIVATE_KEY', (rng) => values.privateKey(rng, true)),
  D: (rng, language) => ({ generated: { text: decoy(rng, language) } }),
  NAME: (rng, language) => ({ generated: { text: rng.pick(language === 'ru' ? NAMES_RU : NAMES_EN) } }),
  N: (rng) => ({ generated: { text: String(rng.int(1, 500)) } }),
};

function fill(rng: Rng, template: Template, id: number): PiiEvalSample {
  let text = '';
  const entities: GoldEntity[] = [];
  const pattern = /\{([A-Z_0-9]+)\}/g;
  let last = 0;
  for (const match of template.text.matchAll(pattern)) {
    text += template.text.slice(last, match.index);
    last = match.index + match[0].length;
    const filler = FILLERS[match[1]!];
    if (!filler) throw new Error(`unknown placeholder ${match[0]}`);
    const { generated, type } = filler(rng, template.language);
    if (type) entities.push({ type, start: text.length + (generated.start ?? 0), end: text.length + (generated.end ?? generated.text.length) });
    text += generated.text;
  }
  text += template.text.slice(last);
  return { id, family: template.family, language: template.language, text, entities };
}

export interface CorpusOptions {
  seed?: number;
  size?: number;
}

/** Shares of the corpus: leaking answers, clean answers with a system prompt, decoy-only texts. */
const LEAK_SHARE = 0.08;
const CLEAN_ANSWER_SHARE = 0.04;
const DECOY_SHARE = 0.12;

export function generatePiiCorpus(options: CorpusOptions = {}): PiiEvalSample[] {
  const rng = createRng(options.seed ?? 20240611);
  const size = options.size ?? 4000;
  const samples: PiiEvalSample[] = [];
  for (let id = 0; id < size; id++) {
    const roll = rng.next();
    if (roll < LEAK_SHARE + CLEAN_ANSWER_SHARE) {
      const language = rng.chance(0.5) ? 'ru' : 'en';
      const leak = leakSample(rng, language, roll < LEAK_SHARE);
      samples.push({
        id,
        family: 'answer',
        language,
        text: leak.text,
        systemPrompt: leak.systemPrompt,
        entities: leak.leak ? [{ type: 'SYSTEM_PROMPT_LEAK', ...leak.leak }] : [],
      });
      continue;
    }
    const pool = roll < LEAK_SHARE + CLEAN_ANSWER_SHARE + DECOY_SHARE ? DECOY_TEMPLATES : TEMPLATES;
    samples.push(fill(rng, rng.pick(pool), id));
  }
  return samples;
}
