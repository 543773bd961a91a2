// The threat detector's bench: latency p50/p99 for 2 KB prompts, classifications per second with
// several requests in flight (in-process, then over HTTP through the service), and the process's memory.
// Options: --device cpu|cuda --concurrency <n> --calls <n> --seconds <n> --bytes <n>.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { listen } from '@palisade/core';
import { createThreatDetector } from './detector.js';
import { THREAT_DETECT_PATH } from './limits.js';
import { buildThreatService } from './service.js';
import { formatThreatSpeed, measureThreatSpeed, threatSpeedPrompt, THREAT_SPEED_DEFAULTS } from './speed.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { device: { type: 'string' }, concurrency: { type: 'string' }, calls: { type: 'string' }, seconds: { type: 'string' }, bytes: { type: 'string' } },
  });
  const options = {
    latencyCalls: values.calls ? Number(values.calls) : THREAT_SPEED_DEFAULTS.latencyCalls,
    concurrency: values.concurrency ? Number(values.concurrency) : THREAT_SPEED_DEFAULTS.concurrency,
    throughputMs: values.seconds ? Number(values.seconds) * 1000 : THREAT_SPEED_DEFAULTS.throughputMs,
    promptBytes: values.bytes ? Number(values.bytes) : THREAT_SPEED_DEFAULTS.promptBytes,
  };
  const device = values.device === 'cuda' ? 'cuda' : 'cpu';
  const detector = await createThreatDetector({ device });
  const report = await measureThreatSpeed(detector, options);
  process.stdout.write(`${formatThreatSpeed(report)}\n`);

  // The same detector behind the HTTP service, loaded by a client in a child process (keep-alive
  // node:http), so the figure is the service's and not the client's.
  const { app } = buildThreatService({ detector, logLevel: 'silent', closeDetector: false });
  const base = await listen(app, { port: 0, host: '127.0.0.1' });
  const body = JSON.stringify({ trace_context: { trace_id: 'http', span_id: '1' }, tenant_id: 'speed', canonical: { user_prompt: threatSpeedPrompt(1, options.promptBytes), language: 'en' } });
  const client = await runHttpClient(`${base}${THREAT_DETECT_PATH}`, body, options.concurrency, options.throughputMs);
  const rss = process.memoryUsage().rss / 2 ** 20;
  process.stdout.write(
    `over HTTP (${options.concurrency} in flight, client in a child process): ${(client.calls / client.seconds).toFixed(0)} classifications/s, ${client.errors} errors; service process RSS ${rss.toFixed(0)} MB (peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB)\n`,
  );
  await app.close();
  await detector.close();
}

const CLIENT = `
const http = require('node:http');
const [url, body, concurrency, ms] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
let calls = 0, errors = 0;
const started = Date.now();
const one = () => new Promise((resolve) => {
  const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    res.resume();
    res.on('end', () => { if (res.statusCode === 200) calls++; else errors++; resolve(); });
  });
  req.on('error', () => { errors++; resolve(); });
  req.end(body);
});
const worker = async () => { while (Date.now() - started < Number(ms)) await one(); };
Promise.all(Array.from({ length: Number(concurrency) }, worker)).then(() => {
  process.stdout.write(JSON.stringify({ calls, errors, seconds: (Date.now() - started) / 1000 }));
  agent.destroy();
});
`;

function runHttpClient(url: string, body: string, concurrency: number, ms: number): Promise<{ calls: number; errors: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT, url, body, String(concurrency), String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { calls: number; errors: number; seconds: number }) : reject(new Error(`HTTP client exited with ${code}`))));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`threat speed failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
