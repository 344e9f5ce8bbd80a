// The soak's view of the worker process's memory: resident set as the kernel reports it, and the
// heap still in use right after a full GC (bench/waiting/gc-probe.mjs, preloaded into the worker),
// which tells memory the session keeps alive from heap V8 has not collected or returned yet.
import type { WorkerProcess } from '../../apps/worker/src/testing/fault-harness';
import { cpuSeconds, memory } from './proc';

export interface MemorySample {
  /** VmRSS before the GC, MB. */
  rss: number;
  /** Heap in use and RSS right after a full GC, MB. */
  gcHeapUsed: number;
  gcRss: number;
  /** CPU seconds the worker has used so far. */
  cpuSeconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples the worker's memory now (asks it for a full GC; answers within ~10 s or throws). */
export async function sampleWorker(worker: WorkerProcess): Promise<MemorySample> {
  const rss = memory(worker.pid).rss;
  const cpu = cpuSeconds(worker.pid);
  const seen = worker.output().length;
  worker.child.kill('SIGUSR2');
  for (let waited = 0; ; waited += 20) {
    const line = worker
      .output()
      .slice(seen)
      .split('\n')
      .find((l) => l.startsWith('{"gcProbe"'));
    if (line) {
      const probe = (JSON.parse(line) as { gcProbe: { heapUsed: number; rss: number } }).gcProbe;
      return { rss, gcHeapUsed: probe.heapUsed, gcRss: probe.rss, cpuSeconds: cpu };
    }
    if (waited > 10_000) throw new Error('the worker did not answer the GC probe');
    await sleep(20);
  }
}
