import t from 'tap';
import { createThreatDetector } from './detector.js';
import { formatThreatSpeed, measureThreatSpeed, threatSpeedPrompt } from './speed.js';

t.test('speed prompts are the asked size and differ by seed', async (t) => {
  t.equal(Buffer.byteLength(threatSpeedPrompt(1)), 2048);
  t.equal(Buffer.byteLength(threatSpeedPrompt(2, 512)), 512);
  t.not(threatSpeedPrompt(1), threatSpeedPrompt(2));
});

t.test('a short measurement reports latency, throughput and memory', async (t) => {
  const detector = await createThreatDetector();
  t.teardown(() => detector.close());
  const report = await measureThreatSpeed(detector, { latencyCalls: 40, concurrency: 2, throughputMs: 300, promptBytes: 2048 });
  t.ok(report.latency.p50Ms > 0 && report.latency.p50Ms <= report.latency.p99Ms);
  t.ok(report.cpu.p50Ms > 0 && report.cpu.p50Ms <= report.cpu.p90Ms, 'CPU time per call');
  t.ok(report.throughput.calls > 0);
  t.ok(report.memory.rssMb > 0);
  t.match(formatThreatSpeed(report), /p50 .* ms, .*p99 .* ms/);
});
