// Prints the homoglyph normalization speed figure: node gateway/dist/normalizer/speed-main.js [iterations]
import { formatHomoglyphSpeed, measureHomoglyphSpeed } from './speed.js';

const iterations = process.argv[2] ? Number(process.argv[2]) : undefined;
if (iterations !== undefined && !(Number.isInteger(iterations) && iterations > 0)) {
  process.stderr.write('usage: speed-main.js [iterations]\n');
  process.exit(2);
}
process.stdout.write(`${formatHomoglyphSpeed(measureHomoglyphSpeed(iterations ? { iterations } : {}))}\n`);
