#!/usr/bin/env node
// `npm run bench [-- flags]`: builds, then runs the gateway bench (hack/dist/bench/main.js) with the
// flags, then the UI bench and the login proxy bench. npm appends `-- flags` to the script's last
// command only, which would hand them to the proxy bench; so the flags go to the gateway bench here,
// and with `--only` (a chosen subset of its scenarios) the other two benches are left out.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (command, commandArgs) => spawnSync(command, commandArgs, { stdio: 'inherit' }).status ?? 1;

let status = run('npm', ['run', 'build']);
if (status !== 0) process.exit(status);
status = run(process.execPath, ['hack/dist/bench/main.js', ...args]);
if (args.some((a) => a === '--only' || a.startsWith('--only='))) process.exit(status);
for (const bench of ['ui/dist/bench/ui-bench.js', 'hack/dist/bench/proxy-bench.js']) {
  const code = run(process.execPath, [bench]);
  if (status === 0) status = code;
}
process.exit(status);
