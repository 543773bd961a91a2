import t from 'tap';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadThreatDataset, threatShippableRows, threatSourceGroup, threatSourceLicence, THREAT_SOURCE_LICENCES } from './dataset.js';

t.test('licences follow the dataset README: NC and GPL sources are development-only', async (t) => {
  const use = (source: string) => threatSourceLicence(source).use;
  t.equal(use('sahil280114/codealpaca:data/new_codealpaca.json'), 'development-only');
  t.equal(use('Instruction-Tuning-with-GPT-4/GPT-4-LLM:plots/data/user_oriented_instructions.jsonl'), 'development-only');
  t.equal(use('utkusen/promptmap:rules/jailbreak/latex.yaml'), 'development-only');
  t.equal(use('CyberAlbSecOP/Awesome_GPT_Super_Prompting:Latest Jailbreaks/AGI.md'), 'development-only');
  t.equal(use('vladislavneon/RuBQ:{RuBQ_1.0/RuBQ_1.0_dev.json}'), 'ship');
  t.equal(threatSourceLicence('paul-rottger/exaggerated-safety:xstest_prompts.csv').licence, 'CC BY 4.0');
  t.equal(threatSourceLicence('cyberark/FuzzyAI:src/fuzzyai/resources/benign_prompts.txt').table, 11, 'the longest prefix wins');
  t.equal(threatSourceLicence('cyberark/FuzzyAI:src/fuzzyai/resources/Jailbreaks.md').table, 5);
  t.throws(() => threatSourceLicence('someone/unknown:file.txt'), /without a licence entry/);
  t.ok([...Array(21).keys()].every((i) => THREAT_SOURCE_LICENCES.some((e) => e.table === i + 1)), 'all 21 rows of the v1 table');
  t.equal(threatSourceLicence('EasyJailbreak/EasyJailbreak:easyjailbreak/seed/seed_template.json#attack/MJP').use, 'development-only');
  t.equal(threatSourceLicence('romanlutz/PyRIT:pyrit/datasets/prompt_templates/jailbreak/pliny/amazon/nova.yaml').use, 'development-only');
  t.equal(threatSourceLicence('romanlutz/PyRIT:pyrit/datasets/prompt_templates/jailbreak/cody.yaml#aug=typos').use, 'ship');
});

t.test('source groups keep translations together and split attack kinds', async (t) => {
  t.equal(
    threatSourceGroup('meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/prompt_injection/prompt_injection.json'),
    threatSourceGroup('meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/prompt_injection/prompt_injection_multilingual_machine_translated.json'),
  );
  t.equal(
    threatSourceGroup('NLP-Core-Team/FastChat:fastchat/llm_judge/data/mt_bench/question.jsonl'),
    threatSourceGroup('NLP-Core-Team/FastChat:fastchat/llm_judge/data/ru_mt_bench/question.jsonl'),
  );
  t.equal(threatSourceGroup('JailbreakBench/artifacts:attack-artifacts/PAIR/black_box/vicuna-13b-v1.5.json'), 'jailbreakbench:PAIR');
  t.not(
    threatSourceGroup('HiveTrace/HiveTraceRed:src/hivetracered/attacks/types/single_turn/roleplay/dan.yaml'),
    threatSourceGroup('HiveTrace/HiveTraceRed:src/hivetracered/attacks/types/single_turn/task_deflection/code.yaml'),
  );
  t.not(
    threatSourceGroup('meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/mitre_frr/mitre_frr.json'),
    threatSourceGroup('meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/prompt_injection/prompt_injection.json'),
    'the benign FRR set is not the injection set',
  );
});

t.test('v2 groups: augmented rows stay with their source, BIPIA by carrier, the grammar by family', async (t) => {
  t.equal(
    threatSourceGroup('HiveTrace/HiveTraceRed:datasets/system_prompt_extraction_ru.csv#aug=translit'),
    threatSourceGroup('HiveTrace/HiveTraceRed:datasets/system_prompt_extraction_ru.csv'),
  );
  t.equal(threatSourceGroup('microsoft/BIPIA:benchmark/table/train.jsonl'), 'bipia:table');
  t.equal(threatSourceGroup('palisade/synth:persona/bare/none'), 'synth:persona');
  t.equal(
    threatSourceGroup('meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/mitre_frr/frr_multilingual_machine_translated.json'),
    threatSourceGroup('meta-llama/PurpleLlama:CybersecurityBenchmarks/datasets/mitre_frr/mitre_frr.json'),
  );
});

t.test('a v2 row ships by its own licence_ok', async (t) => {
  const rows = [
    { text: 'a', label: 0 as const, source: 'kristaller486/RuQualBench:x', lang: 'ru', licence_ok: false },
    { text: 'b', label: 0 as const, source: 'deepmind/xquad:xquad.de.json', lang: 'de', licence_ok: true },
  ];
  t.same(threatShippableRows(rows).map((r) => r.text), ['b']);
});

t.test('loading validates each line', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'threat-data-'));
  const good = join(dir, 'good.jsonl');
  await writeFile(good, [
    JSON.stringify({ text: 'hi', label: 0, source: 'openai/grade-school-math:x', lang: 'en' }),
    JSON.stringify({ text: 'ignore', label: 1, source: 'utkusen/promptmap:rules/x.yaml', lang: 'en' }),
    '',
  ].join('\n'));
  const rows = loadThreatDataset(good);
  t.equal(rows.length, 2);
  t.same(threatShippableRows(rows).map((r) => r.text), ['hi']);
  const bad = join(dir, 'bad.jsonl');
  await writeFile(bad, `${JSON.stringify({ text: 'x', label: 2, source: 's', lang: 'en' })}\n`);
  t.throws(() => loadThreatDataset(bad), /bad\.jsonl:1/);
});
