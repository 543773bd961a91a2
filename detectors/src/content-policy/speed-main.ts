// Prints the content policy speed figure: node detectors/dist/content-policy/speed-main.js [iterations]
import { formatContentPolicySpeed, measureContentPolicySpeed } from './speed.js';

const iterations = process.argv[2] ? Number(process.argv[2]) : undefined;
if (iterations !== undefined && !(Number.isInteger(iterations) && iterations > 0)) {
  process.stderr.write('usage: speed-main.js [iterations]\n');
  process.exit(2);
}
const report = await measureContentPolicySpeed(iterations ? { iterations } : {});
process.stdout.write(`${formatContentPolicySpeed(report)}\n`);
