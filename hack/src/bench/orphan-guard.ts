// Preloaded into every child the benchmark starts (node --import): the child terminates itself
// (SIGTERM, so its own graceful shutdown runs) as soon as the benchmark process is gone, even when
// that one was killed with SIGKILL and could not stop its children. Costs one unref'd timer.
const parent = Number(process.env.PALISADE_BENCH_PARENT_PID);

function parentAlive(): boolean {
  try {
    process.kill(parent, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

if (Number.isInteger(parent) && parent > 0) {
  setInterval(() => {
    if (!parentAlive()) process.kill(process.pid, 'SIGTERM');
  }, 1000).unref();
}
