// Runs every compiled test file (tests sit beside the code as foo.test.ts and are built to
// dist/**/foo.test.js), each in its own node process, N at a time (N = CPUs, or PALISADE_TEST_JOBS),
// the longest first (the times of the last run in .tap/last-run.tap, else the end-to-end and browser
// files first) so that no long file starts last. Prints each file's result and the failures in full,
// writes the whole TAP stream to .tap/last-run.tap, and ends with the line
// "N passed, N failed[, N skipped]" that CI reads. N counts the top-level tests of each file.
// The files are started with node itself rather than through tap's runner: the runner loads
// @tapjs/processinfo into every process of the tree (tests, the servers they spawn, their worker
// threads) through NODE_OPTIONS, which doubles the CPU time of a file that starts servers, and it
// sorts the files by name. Timeouts work as under tap's runner: 120 s per file unless the file sets
// its own with t.setTimeout, which the child reports over the IPC channel.
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'tap-parser';
import { ensureChromium } from './ensure-chromium.mjs';

const WORKSPACES = ['core', 'mock-llm', 'gateway', 'detectors', 'admin', 'operator', 'hack', 'testing', 'charts', 'cli', 'ui'];
const filters = process.argv.slice(2);

function findTests(dir) {
  let out = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(findTests(path));
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

// A compiled test whose source was deleted is left behind in dist/ by tsc; it is not run.
const hasSource = (file) => existsSync(file.replace(/^([\w-]+)[/\\]dist[/\\]/, '$1/src/').replace(/\.js$/, '.ts'));

const files = WORKSPACES.flatMap((ws) => findTests(join(ws, 'dist')))
  .filter(hasSource)
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files found (did the build run?)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

mkdirSync('.tap', { recursive: true });
// Browser tests need Debian's Chromium: install it when possible, else tell the tests why they skip.
const browserSkipReason = ensureChromium();
if (browserSkipReason) console.log(`browser tests will skip: ${browserSkipReason}`);

const LOG_PATH = join('.tap', 'last-run.tap');
const FILE_TIMEOUT_MS = 120_000;
// How long a timed-out file has to report its open handles (tap's own timeout does so) before SIGKILL.
const TIMEOUT_GRACE_MS = 15_000;
const jobs = Math.max(1, Number(process.env.PALISADE_TEST_JOBS) || availableParallelism());

/** Each file's wall time in ms from the last run's log, if there is one. */
function previousDurations() {
  const durations = new Map();
  const FILE_LINE = /^(?:not )?ok \d+ - (\S+)/;
  const TIME = /# time=([\d.]+)(m?s)$/;
  let text = '';
  try {
    text = readFileSync(LOG_PATH, 'utf8');
  } catch {
    return durations;
  }
  for (const line of text.split('\n')) {
    const file = FILE_LINE.exec(line);
    const time = file && TIME.exec(line);
    if (time) durations.set(file[1], Number(time[1]) * (time[2] === 's' ? 1000 : 1));
  }
  return durations;
}

// Longest first by the last run's times. A file it did not time (all of them on a fresh clone, as in
// CI) goes first when it is an end-to-end or browser file (they start servers or a browser), else last.
const durations = previousDurations();
const likelyLong = (file) => /\.(e2e|browser)\.test\.js$/.test(file);
const rank = (file) => durations.get(file) ?? (likelyLong(file) ? Number.MAX_SAFE_INTEGER : -1);
const ordered = [...files].sort((x, y) => rank(y) - rank(x));

const log = createWriteStream(LOG_PATH);
log.write('TAP version 14\n');
const childEnv = {
  ...process.env,
  FORCE_COLOR: '0',
  // What tap's runner sets for each test process (the test's own tap reads them).
  TAP: '1',
  TAP_BAIL: '0',
  TAP_TIMEOUT: String(FILE_TIMEOUT_MS / 1000),
  ...(browserSkipReason ? { PALISADE_BROWSER_SKIP_REASON: browserSkipReason } : {}),
};

// The test processes still running, ended with the run when it is interrupted.
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    process.exit(1);
  });
}

/** Runs one test file in its own process; resolves with its TAP output, parsed, and how it ended. */
function runFile(file, childId, jobId) {
  return new Promise((resolve) => {
    const key = String(Math.random());
    const started = performance.now();
    const child = spawn(process.execPath, ['--enable-source-maps', file], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: { ...childEnv, TAP_CHILD_ID: String(childId), TAP_CHILD_KEY: key, TAP_JOB_ID: String(jobId) },
    });
    running.add(child);
    const parser = new Parser();
    const asserts = [];
    parser.on('assert', (result) => asserts.push(result));
    const completed = new Promise((done) => parser.on('complete', done));
    let output = '';
    let timedOut = false;
    let timer;
    let killTimer;
    const expire = () => {
      timedOut = true;
      // The child's tap reports its open handles on this message, then exits.
      try {
        child.send({ tapAbort: 'timeout', key, child: String(childId) }, () => {});
      } catch {
        // the channel is already closed: the kill below ends it
      }
      killTimer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_GRACE_MS);
    };
    const arm = (ms) => {
      clearTimeout(timer);
      if (ms > 0) timer = setTimeout(expire, ms);
    };
    arm(FILE_TIMEOUT_MS);
    // t.setTimeout(n) in the file tells the parent its new limit, as under tap's runner.
    child.on('message', (message) => {
      if (message?.key === key && message.child === String(childId) && typeof message.setTimeout === 'number') arm(message.setTimeout);
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      parser.write(chunk);
    });
    child.on('close', async (code, signal) => {
      running.delete(child);
      clearTimeout(timer);
      clearTimeout(killTimer);
      parser.end();
      const results = await completed;
      resolve({ file, output, asserts, results, code, signal, timedOut, ms: performance.now() - started });
    });
  });
}

let passed = 0, failed = 0, skipped = 0;
let fileNumber = 0;

/**
 * The lines of a TAP block that explain its failures: every `not ok` line, the diagnostics block
 * (`---` to `...`) under it, and the `# Subtest:` headers that lead to it.
 */
function failureLines(lines) {
  const shown = [];
  const path = []; // the open subtest headers, by indentation
  const indentOf = (line) => line.length - line.trimStart().length;
  let lastFailureIndent = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trimStart();
    if (trimmed.startsWith('# Subtest:')) {
      while (path.length > 0 && path[path.length - 1].indent >= indentOf(line)) path.pop();
      path.push({ indent: indentOf(line), line, printed: false });
      continue;
    }
    if (!/^not ok\b/.test(trimmed)) continue;
    for (const header of path) {
      if (header.indent < indentOf(line) && !header.printed) {
        shown.push(header.line);
        header.printed = true;
      }
    }
    shown.push(line);
    // A subtest that failed because a child did says only where it is; the child's block said why.
    const becauseOfChild = lastFailureIndent > indentOf(line);
    lastFailureIndent = indentOf(line);
    if (lines[i + 1]?.trim() === '---') {
      const indent = indentOf(lines[i + 1]);
      for (i = i + 1; i < lines.length; i++) {
        if (!becauseOfChild) shown.push(lines[i]);
        if (lines[i].trim() === '...' && indentOf(lines[i]) === indent) break;
      }
    }
  }
  return shown;
}

/** Logs one file's run as a subtest of the whole run and prints its line (and its failures). */
function report(run) {
  const { file, output, asserts, results, code, signal, timedOut, ms } = run;
  const skipAll = results.plan.skipAll && code === 0 && !signal;
  const fileOk = results.ok && code === 0 && !signal && !timedOut;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const a of asserts) {
    if (a.skip || a.todo) counts.skipped++;
    else if (a.ok) counts.passed++;
    else counts.failed++;
  }
  // A file that crashed before or outside its tests still counts as one failure.
  if (!fileOk && counts.failed === 0) counts.failed = 1;
  if (fileOk && counts.passed + counts.skipped === 0) {
    if (skipAll) counts.skipped = 1;
    else counts.passed = 1;
  }
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;

  const body = output.split('\n').filter((l, i, all) => !/^TAP version/.test(l) && !(i === all.length - 1 && l === ''));
  const diagnostics = fileOk ? [] : ['  ---', `  exitCode: ${code}`, `  signal: ${signal}`, ...(timedOut ? ['  timedOut: true'] : []), '  ...'];
  const block = [
    `# Subtest: ${file}`,
    ...body.map((l) => (l ? `    ${l}` : l)),
    `${fileOk ? 'ok' : 'not ok'} ${++fileNumber} - ${file}${skipAll ? ` # SKIP ${results.plan.skipReason || 'no tests found'}` : ''} # time=${ms.toFixed(3)}ms`,
    ...diagnostics,
  ];
  log.write(block.join('\n') + '\n');

  const summary = `${counts.passed} passed${counts.failed ? `, ${counts.failed} failed` : ''}${counts.skipped ? `, ${counts.skipped} skipped` : ''}`;
  console.log(`${fileOk ? 'ok  ' : 'FAIL'} ${file} (${summary})`);
  if (!fileOk) {
    // Show each failing assertion with its YAML diagnostics and the subtests it sits in, nothing else
    // (a failure deep in a long file must not fall outside what is printed); the whole stream is in
    // .tap/last-run.tap.
    const failures = failureLines(block);
    // A file that failed without a failing assertion (it crashed, timed out or exited early): its last lines.
    console.log((failures.length > 0 ? failures.slice(0, 300) : block.slice(-40)).join('\n'));
  }
  for (const a of asserts) if (a.skip || a.todo) console.log(`     skipped: ok ${a.id} - ${a.name} # ${a.skip ? 'SKIP' : 'TODO'} ${typeof (a.skip || a.todo) === 'string' ? a.skip || a.todo : ''}`.trimEnd());
}

// The Admin UI's component tests run in Vitest (jsdom), not tap; their counts join the closing line.
// It starts with the tap files (its workers fill the gaps they leave) and is reported after them.
async function runVitest() {
  if (filters.length > 0 && !filters.some((f) => 'ui/web'.includes(f) || f.startsWith('ui/web'))) return { passed: 0, failed: 0, lines: [] };
  const report = join('.tap', 'vitest.json');
  rmSync(report, { force: true });
  const vitest = spawn(join('node_modules', '.bin', 'vitest'), ['run', '--root', 'ui/web', '--reporter=json', `--outputFile=${join(process.cwd(), report)}`], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } });
  running.add(vitest);
  const status = await new Promise((resolve) => vitest.on('close', resolve));
  running.delete(vitest);
  try {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    const failedRun = status !== 0 && result.numFailedTests === 0 ? 1 : 0;
    const counts = { passed: result.numPassedTests, failed: result.numFailedTests + failedRun };
    const lines = [`${counts.failed ? 'FAIL' : 'ok  '} ui/web (vitest) (${counts.passed} passed${counts.failed ? `, ${counts.failed} failed` : ''})`];
    for (const file of result.testResults) for (const a of file.assertionResults) if (a.status === 'failed') lines.push(`    not ok ${a.fullName}\n${(a.failureMessages ?? []).join('\n').slice(0, 2000)}`);
    return { ...counts, lines };
  } catch {
    return { passed: 0, failed: 1, lines: ['FAIL ui/web (vitest): no report'] };
  }
}

const vitestRun = runVitest();
const runStarted = performance.now();
const queue = [...ordered];
let nextChildId = 0;
async function lane(jobId) {
  while (queue.length > 0) report(await runFile(queue.shift(), ++nextChildId, jobId));
}
await Promise.all(Array.from({ length: Math.min(jobs, ordered.length) }, (_, jobId) => lane(jobId)));
await new Promise((resolve) => log.end(`1..${fileNumber}\n# time=${(performance.now() - runStarted).toFixed(3)}ms\n`, resolve));

const vitest = await vitestRun;
for (const line of vitest.lines) console.log(line);
passed += vitest.passed;
failed += vitest.failed;
console.log('');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
