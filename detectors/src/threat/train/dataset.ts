// The training file (../shared/datasets/injection-train.jsonl), its sources' licences and the source
// groups that held-out evaluation leaves out whole. The licence table follows the dataset README's
// "Sources" table: only rows of permissive sources train the model that ships.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const ThreatTrainingRowSchema = z.object({
  text: z.string(),
  label: z.union([z.literal(0), z.literal(1)]),
  source: z.string().min(1),
  lang: z.enum(['en', 'ru']),
});
export type ThreatTrainingRow = z.infer<typeof ThreatTrainingRowSchema>;

/** The default location: the shared datasets folder beside the repository checkout. */
export const THREAT_DATASET_URL = new URL('../../../../../shared/datasets/injection-train.jsonl', import.meta.url);

export function threatDatasetPath(): string {
  return fileURLToPath(THREAT_DATASET_URL);
}

/** Reads and validates the JSONL file; a malformed line stops with its line number. */
export function loadThreatDataset(path: string = threatDatasetPath()): ThreatTrainingRow[] {
  const rows: ThreatTrainingRow[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const parsed = ThreatTrainingRowSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${i + 1}: ${parsed.error.issues[0]?.message ?? 'invalid row'}`);
      rows.push(parsed.data);
    });
  return rows;
}

export type ThreatLicenceUse = 'ship' | 'development-only';

export interface ThreatSourceLicence {
  /** The `source` prefix (owner/repo:path prefix) this entry covers. */
  prefix: string;
  /** The dataset README's table row. */
  table: number;
  /** The snapshot commit the rows were read at (dataset README). */
  commit: string;
  licence: string;
  use: ThreatLicenceUse;
  /** Attribution line for NOTICE.md. */
  attribution: string;
}

// Prefixes are matched longest first. `development-only`: CC BY-NC and GPL sources (README "Licences").
export const THREAT_SOURCE_LICENCES: readonly ThreatSourceLicence[] = [
  { prefix: 'meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/prompt_injection/', table: 1, commit: '4be64c3a24442b51c76175e6ec67722cc3f5fe38', licence: 'MIT', use: 'ship', attribution: 'CyberSecEval prompt-injection set, Meta Platforms, Inc. (meta-llama/PurpleLlama, CybersecurityBenchmarks/LICENSE)' },
  { prefix: 'HiveTrace/HiveTraceRed:datasets/system_prompt_extraction_ru.csv', table: 2, commit: '975fd9993528a6b3531ab6687d4194d413c3b82b', licence: 'Apache-2.0', use: 'ship', attribution: 'HiveTraceRed system-prompt-extraction set (HiveTrace/HiveTraceRed)' },
  { prefix: 'HiveTrace/HiveTraceRed:src/', table: 3, commit: '975fd9993528a6b3531ab6687d4194d413c3b82b', licence: 'Apache-2.0', use: 'ship', attribution: 'HiveTraceRed attack templates and datasets/prompts.csv payloads (HiveTrace/HiveTraceRed)' },
  { prefix: 'JailbreakBench/artifacts:', table: 4, commit: '909e68c01d94222b8ad2e397a017e2e12e2adb73', licence: 'MIT', use: 'ship', attribution: 'JailbreakBench attack artifacts (JailbreakBench/artifacts)' },
  { prefix: 'cyberark/FuzzyAI:src/fuzzyai/resources/Jailbreaks.md', table: 5, commit: 'a81260f5eb16a361155a235d44e64684e5f5bc85', licence: 'Apache-2.0', use: 'ship', attribution: 'FuzzyAI jailbreak examples, CyberArk (cyberark/FuzzyAI)' },
  { prefix: 'cyberark/FuzzyAI:src/fuzzyai/resources/adv_bench_sub', table: 6, commit: 'a81260f5eb16a361155a235d44e64684e5f5bc85', licence: 'Apache-2.0', use: 'ship', attribution: 'Persuasive adversarial prompts as redistributed in FuzzyAI, CyberArk (cyberark/FuzzyAI); originally from the CHATS-Lab persuasive-jailbreaker release' },
  { prefix: 'utkusen/promptmap:', table: 7, commit: 'd305132e38f28b4cdca5c5b4586f11904ed1836d', licence: 'GPL-3.0', use: 'development-only', attribution: 'promptmap rules (utkusen/promptmap)' },
  { prefix: 'CyberAlbSecOP/Awesome_GPT_Super_Prompting:', table: 8, commit: '15334d89925d8cd83d26599a75b72202c5b2d243', licence: 'GPL-3.0', use: 'development-only', attribution: 'Awesome_GPT_Super_Prompting (CyberAlbSecOP)' },
  { prefix: 'sherdencooper/GPTFuzz:', table: 9, commit: '1eddeb565740ae311b5f4950492b011a6f866fe7', licence: 'MIT', use: 'ship', attribution: 'GPTFuzzer templates and question list (sherdencooper/GPTFuzz)' },
  { prefix: 'mik0w/pallms:', table: 10, commit: 'bfedec0fa6cb8d44a73c730a02eeaac36aefd198', licence: 'MIT', use: 'ship', attribution: 'pallms payload lists (mik0w/pallms)' },
  { prefix: 'cyberark/FuzzyAI:src/fuzzyai/resources/benign_prompts.txt', table: 11, commit: 'a81260f5eb16a361155a235d44e64684e5f5bc85', licence: 'Apache-2.0', use: 'ship', attribution: 'FuzzyAI benign prompts, CyberArk (cyberark/FuzzyAI)' },
  { prefix: 'teknium1/GPTeacher:', table: 12, commit: '481075123c29854bddb82655badeef6a438f2436', licence: 'MIT', use: 'ship', attribution: 'GPTeacher role-play instructions (teknium1/GPTeacher)' },
  { prefix: 'sahil280114/codealpaca:', table: 13, commit: '2f78ddc5c682ed6738ad092bbbfa59ba915afcb0', licence: 'CC BY-NC 4.0', use: 'development-only', attribution: 'Code Alpaca (sahil280114/codealpaca)' },
  { prefix: 'openai/grade-school-math:', table: 14, commit: '3101c7d5072418e28b9008a6636bde82a006892c', licence: 'MIT', use: 'ship', attribution: 'GSM8K test split, OpenAI (openai/grade-school-math)' },
  { prefix: 'paul-rottger/exaggerated-safety:', table: 15, commit: 'd7bb5bd738c1fcbc36edd83d5e7d1b71a3e2d84d', licence: 'CC BY 4.0', use: 'ship', attribution: 'XSTest safe prompts, Paul Röttger et al., "XSTest: A Test Suite for Identifying Exaggerated Safety Behaviours in Large Language Models" (paul-rottger/exaggerated-safety), CC BY 4.0' },
  { prefix: 'meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/mitre_frr/', table: 16, commit: '4be64c3a24442b51c76175e6ec67722cc3f5fe38', licence: 'MIT', use: 'ship', attribution: 'CyberSecEval MITRE false-refusal set, Meta Platforms, Inc. (meta-llama/PurpleLlama)' },
  { prefix: 'NLP-Core-Team/FastChat:', table: 17, commit: 'a19736c35122b45e1e2b553bed6685b9d12cb442', licence: 'Apache-2.0', use: 'ship', attribution: 'MT-Bench, Vicuna bench and ruMT-Bench questions (NLP-Core-Team/FastChat, after lm-sys/FastChat)' },
  { prefix: 'Instruction-Tuning-with-GPT-4/GPT-4-LLM:', table: 18, commit: '80cda626ea305004be42426671c66efebbf22144', licence: 'CC BY-NC 4.0', use: 'development-only', attribution: 'GPT-4-LLM user-oriented instructions (Instruction-Tuning-with-GPT-4/GPT-4-LLM)' },
  { prefix: '0xeb/TheBigPromptLibrary:', table: 19, commit: '655667d2dd43bad65f189ec49d8606bf3e8d967e', licence: 'MIT', use: 'ship', attribution: 'TheBigPromptLibrary GPT-Protections snippets (0xeb/TheBigPromptLibrary)' },
  { prefix: 'kristaller486/RuQualBench:', table: 20, commit: 'a944a2ee8ec32dcd5c1bbe3d8384fa309c8a185a', licence: 'MIT (repository); questions drawn from Hugging Face datasets with their own terms', use: 'ship', attribution: 'RuQualBench user turns (kristaller486/RuQualBench); questions from wikisource_preferences_ru, kalo_misc_part2_no_system_ru, writingprompts-ru and t-tech/T-Wix' },
  { prefix: 'vladislavneon/RuBQ:', table: 21, commit: 'fade3eae6a4807c35b19cfce20dfa805fc8c0cdf', licence: 'CC BY-SA 4.0', use: 'ship', attribution: 'RuBQ: A Russian Dataset for Question Answering over Wikidata, Vladislav Korablinov and Pavel Braslavski (vladislavneon/RuBQ), CC BY-SA 4.0' },
];

const BY_LENGTH = [...THREAT_SOURCE_LICENCES].sort((a, b) => b.prefix.length - a.prefix.length);

/** The licence entry of a row's source; an unknown source throws (every source must be classified). */
export function threatSourceLicence(source: string): ThreatSourceLicence {
  const entry = BY_LENGTH.find((e) => source.startsWith(e.prefix));
  if (!entry) throw new Error(`source without a licence entry: ${source}`);
  return entry;
}

/**
 * The group a source is held out with. Sources that share text are one group: PurpleLlama's English
 * prompts and their machine translations, MT-Bench and ruMT-Bench (a translation). Large collections of
 * different attack kinds are split by kind (JailbreakBench by attack method, HiveTraceRed templates by
 * attack family), since holding out a kind is what a new attack looks like to the model.
 */
export function threatSourceGroup(source: string): string {
  const entry = threatSourceLicence(source);
  if (entry.table === 4) {
    const method = /attack-artifacts\/([^/]+)\//.exec(source)?.[1] ?? 'other';
    return `jailbreakbench:${method === 'prompt_with_random_search' ? 'GCG' : method}`;
  }
  if (entry.table === 3) {
    const family = /single_turn\/([^/]+)\//.exec(source)?.[1] ?? 'other';
    return `hivetrace-templates:${family === 'roleplay' || family === 'in_context_learning' ? 'roleplay+few-shot' : family}`;
  }
  // GPTFuzz and pallms are both the jailbreakchat pool (README caveats): one community group.
  if (entry.table === 9 || entry.table === 10) return 'community-jailbreaks';
  return `table-${entry.table}:${entry.prefix.split(':')[0]}`;
}

/** Rows the shipped model may be trained on. */
export function threatShippableRows(rows: readonly ThreatTrainingRow[]): ThreatTrainingRow[] {
  return rows.filter((row) => threatSourceLicence(row.source).use === 'ship');
}
