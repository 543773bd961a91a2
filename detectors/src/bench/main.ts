// The detectors' in-process speed figures, printed by `npm run bench` after the load scenarios
// (also alone: node detectors/dist/bench/main.js). Each detector measures itself; this only runs them.
import { formatContentPolicySpeed, measureContentPolicySpeed } from '../content-policy/speed.js';
import { formatPiiSpeedReport, measurePiiSpeed } from '../pii/speed.js';
import { createThreatDetector } from '../threat/detector.js';
import { formatThreatSpeed, measureThreatSpeed } from '../threat/speed.js';

const sections: Array<{ name: string; run: () => Promise<string> }> = [
  { name: 'pii', run: async () => formatPiiSpeedReport(await measurePiiSpeed()) },
  {
    name: 'threat',
    run: async () => {
      const detector = await createThreatDetector();
      try {
        return formatThreatSpeed(await measureThreatSpeed(detector));
      } finally {
        await detector.close();
      }
    },
  },
  { name: 'content policy', run: async () => formatContentPolicySpeed(await measureContentPolicySpeed()) },
];

process.stdout.write('\ndetector speed (in-process, one call at a time):\n');
for (const section of sections) {
  try {
    process.stdout.write(`\n${await section.run()}\n`);
  } catch (error) {
    process.stdout.write(`\n${section.name}: could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
