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
  /** en, ru, de, fr, es, zh, it, pt, ja, ko or other (v2); a heuristic guess of the dataset builder. */
  lang: z.string().min(2),
  /** v2: whether the source's licence allows commercial use and redistribution (absent in v1 files). */
  licence_ok: z.boolean().optional(),
});
export type ThreatTrainingRow = z.infer<typeof ThreatTrainingRowSchema>;

/** The default location: the shared datasets folder beside the repository checkout. */
export const THREAT_DATASET_URL = new URL('../../../../../shared/datasets/injection-train-v2.jsonl', import.meta.url);
/** v1 of the file (all of it is in v2), for training the previous recipe on the same folds. */
export const THREAT_DATASET_V1_URL = new URL('../../../../../shared/datasets/injection-train.jsonl', import.meta.url);

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
  // v2 sources (dataset README "Sources added in v2"); whether a row may ship is its own `licence_ok`.
  { prefix: 'meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/mitre_frr/frr_multilingual', table: 37, commit: '4be64c3a24442b51c76175e6ec67722cc3f5fe38', licence: 'MIT', use: 'ship', attribution: 'CyberSecEval false-refusal prompts, machine-translated, Meta Platforms, Inc. (meta-llama/PurpleLlama)' },
  { prefix: 'swisskyrepo/PayloadsAllTheThings:', table: 23, commit: 'f9fa51417886ac11476cb62db2dff21773dc570b', licence: 'MIT', use: 'ship', attribution: 'PayloadsAllTheThings, Prompt Injection page (swisskyrepo/PayloadsAllTheThings)' },
  { prefix: 'romanlutz/PyRIT:pyrit/datasets/prompt_templates/jailbreak/pliny/', table: 25, commit: 'b06c6bca8aff0cb115d281763c74faa60b10b172', licence: 'unclear (Pliny L1B3RT4S prompts)', use: 'development-only', attribution: 'Pliny jailbreak templates via PyRIT (romanlutz/PyRIT)' },
  { prefix: 'romanlutz/PyRIT:', table: 24, commit: 'b06c6bca8aff0cb115d281763c74faa60b10b172', licence: 'MIT', use: 'ship', attribution: 'PyRIT jailbreak templates, Microsoft (romanlutz/PyRIT snapshot of Azure/PyRIT); slots filled with MultiJail / BIPIA requests' },
  { prefix: 'EasyJailbreak/EasyJailbreak:', table: 26, commit: 'd5477e712e43b7a1a2110974b814ce578d609f5f', licence: 'GPL-3.0', use: 'development-only', attribution: 'EasyJailbreak seed templates (EasyJailbreak/EasyJailbreak)' },
  { prefix: 'TakSec/Prompt-Injection-Everywhere:', table: 28, commit: '9b69c8ae7958f68d562d484103a7b14b66983d63', licence: 'MIT', use: 'ship', attribution: 'Prompt-Injection-Everywhere payloads (TakSec/Prompt-Injection-Everywhere)' },
  { prefix: 'langgptai/LLM-Jailbreaks:', table: 29, commit: 'f866ee1bb86ceeee3c8675925ec6da02f16f697d', licence: 'unclear (copied prompts)', use: 'development-only', attribution: 'LLM-Jailbreaks (langgptai/LLM-Jailbreaks)' },
  { prefix: 'microsoft/BIPIA:', table: 30, commit: '1a2a91da6bb12838e05d1b2e54d98e2f37b835f3', licence: 'MIT (repository); contexts: OpenAI evals e-mails (MIT), WikiTableQuestions tables (CC BY-SA 4.0), Stack Exchange code Q&A (CC BY-SA 4.0)', use: 'ship', attribution: 'BIPIA, Microsoft (microsoft/BIPIA), with contexts from OpenAI evals, WikiTableQuestions (CC BY-SA 4.0) and Stack Exchange (CC BY-SA 4.0); see its NOTICE.md' },
  { prefix: 'sequrity-ai/agentdojo:', table: 32, commit: '357c80dea9af34323f709c3505d9e6d224654c7e', licence: 'MIT', use: 'ship', attribution: 'AgentDojo environments and injection vectors, ETH Zurich SPY Lab (sequrity-ai/agentdojo fork of ethz-spylab/agentdojo)' },
  { prefix: 'deepmind/xquad:', table: 35, commit: '60cac411649156efb6aab9dd4c9cde787a2c0345', licence: 'CC BY-SA 4.0', use: 'ship', attribution: 'XQuAD, DeepMind (deepmind/xquad), CC BY-SA 4.0' },
  { prefix: 'google-research/url-nlp:', table: 36, commit: '452a21ad3dae5668c06ceeac21ff073e1e40f9be', licence: 'CC BY 4.0', use: 'ship', attribution: 'MGSM, Google Research (google-research/url-nlp), CC BY 4.0' },
  { prefix: 'clinc/oos-eval:', table: 38, commit: '828f8093932c8fe6ca7936c3d2e52903b1c523de', licence: 'CC BY 3.0', use: 'ship', attribution: 'CLINC150, Larson et al. (clinc/oos-eval), CC BY 3.0' },
  { prefix: 'openai/human-eval:', table: 40, commit: '6d43fb980f9fee3c892a914eda09951f772ad10d', licence: 'MIT', use: 'ship', attribution: 'HumanEval, OpenAI (openai/human-eval)' },
  { prefix: 'f/awesome-chatgpt-prompts:', table: 41, commit: 'a7df088b93bbc51c708434daa425e2b8450dd22a', licence: 'CC0 1.0', use: 'ship', attribution: 'Awesome ChatGPT Prompts (f/awesome-chatgpt-prompts), CC0' },
  { prefix: 'PlexPt/awesome-chatgpt-prompts-zh:', table: 42, commit: '367ed18b9c50b702d762c6fbc2885107141acb62', licence: 'MIT', use: 'ship', attribution: 'awesome-chatgpt-prompts-zh (PlexPt/awesome-chatgpt-prompts-zh)' },
  { prefix: 'LianjiaTech/BELLE:', table: 43, commit: '645084d36454cdeb4e7f1ce9b2f3426bac39f1f9', licence: 'research use only', use: 'development-only', attribution: 'BELLE evaluation set (LianjiaTech/BELLE)' },
  { prefix: 'OWASP/www-project-top-10-for-large-language-model-applications:', table: 44, commit: '020595761a4b7b0c3f9cf01a0457b78f9f1e7f9c', licence: 'CC BY-SA 4.0', use: 'ship', attribution: 'OWASP Top 10 for LLM Applications and its translations, OWASP Foundation, CC BY-SA 4.0' },
  { prefix: 'dair-ai/Prompt-Engineering-Guide:', table: 45, commit: '3d96678f28793e6f23ac6c0127799489f2c9022b', licence: 'MIT', use: 'ship', attribution: 'Prompt Engineering Guide, DAIR.AI (dair-ai/Prompt-Engineering-Guide)' },
  { prefix: 'Koziev/NLP_Datasets:', table: 46, commit: '85d7cbdf41d8b62bbd385aaab2920bc9c4b4f63f', licence: 'CC0 1.0', use: 'ship', attribution: 'NLP_Datasets, Ilya Koziev (Koziev/NLP_Datasets), CC0' },
  { prefix: 'PolyAI-LDN/task-specific-datasets:', table: 47, commit: '57ec275d8078af65b7731c2a98be812d844a6d6b', licence: 'CC BY 4.0', use: 'ship', attribution: 'BANKING77, PolyAI (PolyAI-LDN/task-specific-datasets), CC BY 4.0' },
  { prefix: 'sebischair/NLU-Evaluation-Corpora:', table: 48, commit: '9bac08b980f0f570c4166e2d7243c2971df50d8f', licence: 'CC BY-SA 3.0', use: 'ship', attribution: 'NLU Evaluation Corpora, sebis TU Munich (sebischair/NLU-Evaluation-Corpora), CC BY-SA 3.0' },
  { prefix: 'snipsco/nlu-benchmark:', table: 49, commit: 'b86ac7f1577868c42158d0dec77db50956046696', licence: 'CC0 1.0', use: 'ship', attribution: 'Snips NLU benchmark (snipsco/nlu-benchmark), CC0' },
  { prefix: 'xliuhw/NLU-Evaluation-Data:', table: 50, commit: 'f6071b496b17d71e6eb43f543af0707f4ff30557', licence: 'CC BY 4.0', use: 'ship', attribution: 'HWU64, Xingkun Liu et al. (xliuhw/NLU-Evaluation-Data), CC BY 4.0' },
  { prefix: 'google-research-datasets/dstc8-schema-guided-dialogue:', table: 51, commit: 'e852981ae34990f4358979625854259302feaa78', licence: 'CC BY-SA 4.0', use: 'ship', attribution: 'Schema-Guided Dialogue, Google Research (google-research-datasets/dstc8-schema-guided-dialogue), CC BY-SA 4.0' },
  { prefix: 'RussianNLP/RuCoLA:', table: 52, commit: 'd86f3dc9bca7365e057fb66bc871ff8b066cae8e', licence: 'Apache-2.0', use: 'ship', attribution: 'RuCoLA, RussianNLP (RussianNLP/RuCoLA)' },
  // Written by this project (train/synth): the attack grammar and its benign twins.
  { prefix: 'palisade/synth:', table: 0, commit: '-', licence: 'Apache-2.0 (this repository)', use: 'ship', attribution: 'Palisade attack grammar (detectors/src/threat/train/synth), generated with a fixed seed' },
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
  // The attack grammar is held out by attack family (leave-family-out), benign twins with their family.
  if (entry.table === 0) return `synth:${source.slice(entry.prefix.length).split('/')[0]}`;
  // Indirect injections by carrier (e-mail, table, code): a new carrier is what a new tool looks like.
  if (entry.table === 30) return `bipia:${/benchmark\/([a-z]+)/.exec(source)?.[1] ?? 'other'}`;
  // Translations stay with their originals.
  if (entry.table === 37) return threatSourceGroup('meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/mitre_frr/x');
  return `table-${entry.table}:${entry.prefix.split(':')[0]}`;
}

/** Whether a row may train the shipped model: its own `licence_ok` (v2), else its source's entry. */
export function threatRowShippable(row: ThreatTrainingRow): boolean {
  return row.licence_ok ?? threatSourceLicence(row.source).use === 'ship';
}

/** Rows the shipped model may be trained on. */
export function threatShippableRows(rows: readonly ThreatTrainingRow[]): ThreatTrainingRow[] {
  return rows.filter(threatRowShippable);
}

/** The languages the figures are broken down by; the rest report as `other`. */
export const THREAT_REPORT_LANGUAGES = ['en', 'ru', 'de', 'fr', 'es', 'zh'] as const;

export function threatReportLanguage(lang: string): string {
  return (THREAT_REPORT_LANGUAGES as readonly string[]).includes(lang) ? lang : 'other';
}
