// Installs dependencies when node_modules is missing or older than package-lock.json, so that
// `npm start` and `npm test` work on a fresh clone with no manual step.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const stampFile = 'node_modules/.palisade-install-stamp';
const lock = existsSync('package-lock.json') ? readFileSync('package-lock.json') : Buffer.from('');
const wanted = createHash('sha256').update(lock).digest('hex');
const have = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
if (have !== wanted) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  console.log('[palisade] installing dependencies (npm ci)…');
  execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  writeFileSync(stampFile, wanted + '\n');
}
