// The in-process threat model is warmed up when the gateway's detectors are built, so that the first
// callers do not pay a worker's cold start (its first prompts run uncompiled); a warm-up that fails
// does not stop the start.
import t from 'tap';
import { createThreatWorkerPool } from '@palisade/detectors';
import { createInspectionDetectors, THREAT_WARM_UP_PER_WORKER } from './detectors.js';

t.test('every threat worker has scored prompts before the detectors are handed out', async (t) => {
  const pool = await createThreatWorkerPool({ workers: 2 });
  t.teardown(() => pool.close());
  t.equal(pool.stats().answered, 0);
  const detectors = await createInspectionDetectors({ env: {}, threat: pool });
  t.teardown(() => detectors.close());
  t.equal(pool.stats().answered, 2 * THREAT_WARM_UP_PER_WORKER, 'the warm-up prompts, all answered');
  t.equal(pool.stats().inFlight, 0, 'none left running for the first caller to wait behind');
});

t.test('a threat model that fails its warm-up is a warning, not a failed start', async (t) => {
  const pool = await createThreatWorkerPool({ workers: 1 });
  await pool.close();
  const warnings: string[] = [];
  const detectors = await createInspectionDetectors({ env: {}, threat: pool, logger: { warn: (_obj, msg) => warnings.push(String(msg)) } });
  t.teardown(() => detectors.close());
  t.same(warnings, ['the threat model could not be warmed up']);
  t.equal(detectors.threat, pool, 'its calls then fail one by one (action_on_detector_error applies)');
});
