// `npm run eval:pii`: generates the labeled corpus, runs the detector over it and prints precision,
// recall and F1 per type. Exits 1 when a type is under the goal (precision 0.98, recall 0.99).
// Options: --seed N, --size N, --errors N (print the first N misclassified entities).
import { belowGoal, evaluatePii, formatEvalTable, PII_EVAL_GOAL } from './evaluate.js';
import { generatePiiCorpus } from './corpus.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? undefined : Number(process.argv[at + 1]);
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}

const seed = option('seed', 20240611);
const size = option('size', 5000);
const report = evaluatePii(generatePiiCorpus({ seed, size }));
process.stdout.write(`PII detector eval (seed ${seed})\n${formatEvalTable(report)}\n`);
for (const error of report.errors.slice(0, option('errors', 0))) {
  process.stdout.write(`${error.kind} ${error.type} #${error.sample}: ${JSON.stringify(error.value)} in ${JSON.stringify(error.context)}\n`);
}
const failing = belowGoal(report);
if (failing.length > 0) {
  process.stdout.write(`below the goal (precision ≥ ${PII_EVAL_GOAL.precision}, recall ≥ ${PII_EVAL_GOAL.recall}): ${failing.map((t) => t.type).join(', ')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`every type meets the goal (precision ≥ ${PII_EVAL_GOAL.precision}, recall ≥ ${PII_EVAL_GOAL.recall})\n`);
}
