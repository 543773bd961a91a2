// Runs every compiled test file (tests sit beside the code as foo.test.ts and are built to
// dist/**/foo.test.js) with tap, prints each file's result and the failures in full, and ends with the
// line "N passed, N failed[, N skipped]" that CI reads. N counts the top-level tests of each file.
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
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

const log = createWriteStream('.tap/last-run.tap');
const tapBin = join('node_modules', '.bin', 'tap');
const child = spawn(tapBin, ['--disable-coverage', '--reporter=tap', '--timeout=120', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, FORCE_COLOR: '0', ...(browserSkipReason ? { PALISADE_BROWSER_SKIP_REASON: browserSkipReason } : {}) },
});

let passed = 0, failed = 0, skipped = 0;
let buffer = '';
let fileBlock = [];
let fileCounts = { passed: 0, failed: 0, skipped: 0 };
const TEST_LINE = /^    (not )?ok \d+ - (.*?)(?: # (SKIP|TODO)\b(.*?))?(?: # time=[\d.]+m?s)?$/;
const FILE_LINE = /^(not )?ok \d+ - (\S+)(?: # (SKIP)\b.*?)?(?: # time=[\d.]+m?s)?$/;

function onLine(line) {
  log.write(line + '\n');
  fileBlock.push(line);
  const test = TEST_LINE.exec(line);
  if (test) {
    if (test[3]) fileCounts.skipped++;
    else if (test[1]) fileCounts.failed++;
    else fileCounts.passed++;
    return;
  }
  const file = FILE_LINE.exec(line);
  if (!file) return;
  const fileFailed = Boolean(file[1]);
  // A file that crashed before or outside its tests still counts as one failure.
  if (fileFailed && fileCounts.failed === 0) fileCounts.failed = 1;
  if (!fileFailed && fileCounts.passed + fileCounts.failed + fileCounts.skipped === 0) {
    if (file[3]) fileCounts.skipped = 1;
    else fileCounts.passed = 1;
  }
  passed += fileCounts.passed;
  failed += fileCounts.failed;
  skipped += fileCounts.skipped;
  const summary = `${fileCounts.passed} passed${fileCounts.failed ? `, ${fileCounts.failed} failed` : ''}${fileCounts.skipped ? `, ${fileCounts.skipped} skipped` : ''}`;
  console.log(`${fileFailed ? 'FAIL' : 'ok  '} ${file[2]} (${summary})`);
  if (fileFailed) {
    // Show the failing assertions with their diagnostics; the full stream is in .tap/last-run.tap.
    const shown = fileBlock.filter((l, i, all) => /not ok|^\s+(---|\.\.\.|[a-z_]+:|-|\s)/.test(l) || /not ok/.test(all[i - 1] ?? ''));
    console.log(shown.slice(0, 200).join('\n'));
  }
  if (fileCounts.skipped) {
    for (const l of fileBlock) if (/# SKIP/.test(l) && /^    ok/.test(l)) console.log(`     skipped: ${l.trim()}`);
  }
  fileBlock = [];
  fileCounts = { passed: 0, failed: 0, skipped: 0 };
}

child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf('\n')) >= 0) {
    onLine(buffer.slice(0, i));
    buffer = buffer.slice(i + 1);
  }
});
// The Admin UI's component tests run in Vitest (jsdom), not tap; their counts join the closing line.
function runVitest() {
  if (filters.length > 0 && !filters.some((f) => 'ui/web'.includes(f) || f.startsWith('ui/web'))) return { passed: 0, failed: 0 };
  const report = join('.tap', 'vitest.json');
  const run = spawnSync(join('node_modules', '.bin', 'vitest'), ['run', '--root', 'ui/web', '--reporter=json', `--outputFile=${join(process.cwd(), report)}`], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, FORCE_COLOR: '0' } });
  try {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    const counts = { passed: result.numPassedTests, failed: result.numFailedTests + (run.status !== 0 && result.numFailedTests === 0 ? 1 : 0) };
    console.log(`${counts.failed ? 'FAIL' : 'ok  '} ui/web (vitest) (${counts.passed} passed${counts.failed ? `, ${counts.failed} failed` : ''})`);
    for (const file of result.testResults) for (const a of file.assertionResults) if (a.status === 'failed') console.log(`    not ok ${a.fullName}\n${(a.failureMessages ?? []).join('\n').slice(0, 2000)}`);
    return counts;
  } catch {
    console.log('FAIL ui/web (vitest): no report');
    return { passed: 0, failed: 1 };
  }
}

child.on('close', (code) => {
  if (buffer) onLine(buffer);
  log.end();
  const vitest = runVitest();
  passed += vitest.passed;
  failed += vitest.failed;
  if (code !== 0 && failed === 0) failed = 1;
  console.log('');
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code === 0 && failed === 0 ? 0 : 1);
});
