// Preloaded into the benchmark's worker (`--expose-gc --import ./gc-probe.mjs`, plain JS because it
// loads before tsx): on SIGUSR2 it runs a full garbage collection and prints `{"gcProbe": {...}}`
// (heap used and RSS after it, MB), so the benchmark can tell memory that waiting runs keep alive
// from heap the worker has not collected or returned yet. Benchmark-only; the worker itself never
// handles SIGUSR2.
process.on('SIGUSR2', () => {
  const gc = globalThis.gc;
  if (typeof gc === 'function') gc();
  const usage = process.memoryUsage();
  const mb = (bytes) => bytes / 1024 / 1024;
  process.stderr.write(`${JSON.stringify({ gcProbe: { heapUsed: mb(usage.heapUsed), rss: mb(usage.rss), collected: typeof gc === 'function' } })}\n`);
});
