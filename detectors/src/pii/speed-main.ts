// Prints the PII detector's speed figures (speed.ts); exits 1 when a target is missed.
// Usage: node detectors/dist/pii/speed-main.js [--iterations N]
import { formatPiiSpeedReport, measurePiiSpeed, piiSpeedMeetsTargets } from './speed.js';

const at = process.argv.indexOf('--iterations');
const iterations = at === -1 ? undefined : Number(process.argv[at + 1]);
const report = measurePiiSpeed(iterations && Number.isFinite(iterations) ? { iterations } : {});
process.stdout.write(`PII detector speed (node ${process.version})\n${formatPiiSpeedReport(report)}\n`);
if (!piiSpeedMeetsTargets(report)) {
  process.stdout.write('a speed target is missed\n');
  process.exitCode = 1;
}
