import { describe, expect, it } from 'vitest';
import { BatchQueue, type BatchItem } from './batch-queue';

interface Job extends BatchItem {
  n: number;
  resolve(value: number): void;
}

function queueOf(options: { maxBatch: number; parallel: number }, process?: (batch: Job[]) => Promise<void>) {
  const batches: number[][] = [];
  const queue = new BatchQueue<Job>(
    process ??
      (async (batch) => {
        batches.push(batch.map((j) => j.n));
        await new Promise((r) => setTimeout(r, 5));
        for (const job of batch) job.resolve(job.n * 2);
      }),
    options,
  );
  const submit = (n: number) => new Promise<number>((resolve, reject) => queue.push({ n, resolve, reject }));
  return { queue, batches, submit };
}

describe('BatchQueue', () => {
  it('processes what arrives in one turn as one batch, and answers each item', async () => {
    const { batches, submit } = queueOf({ maxBatch: 10, parallel: 1 });
    const results = await Promise.all([1, 2, 3].map(submit));
    expect(results).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('splits at maxBatch, keeps at most `parallel` in flight, and batches what arrives meanwhile', async () => {
    const { batches, submit } = queueOf({ maxBatch: 2, parallel: 1 });
    const first = [1, 2, 3].map(submit);
    await new Promise((r) => setImmediate(r));
    const later = [4, 5].map(submit);
    expect(await Promise.all([...first, ...later])).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('rejects every item of a batch whose processing throws, and goes on with the next', async () => {
    let calls = 0;
    const { submit } = queueOf({ maxBatch: 2, parallel: 1 }, async (batch) => {
      calls++;
      if (calls === 1) throw new Error('database down');
      for (const job of batch) job.resolve(job.n);
    });
    const settled = await Promise.allSettled([1, 2, 3].map(submit));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((settled[0] as PromiseRejectedResult).reason).toEqual(new Error('database down'));
  });
});
