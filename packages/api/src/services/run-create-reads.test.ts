import { describe, expect, it } from 'vitest';
import { SharedRead } from './run-create-reads';

/** A read whose calls are recorded and finish only when released, returning the version current at its start. */
function heldRead() {
  let version = 0;
  const started: Array<{ key: string; release: () => void }> = [];
  const read = new SharedRead<string>((key) => {
    const seen = `${key}@${version}`;
    return new Promise((resolve) => started.push({ key, release: () => resolve(seen) }));
  });
  return { read, started, bump: () => version++ };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedRead', () => {
  it('callers of one key in one turn share one read; other keys read on their own', async () => {
    const { read, started } = heldRead();
    const answers = Promise.all([read.get('a'), read.get('a'), read.get('a'), read.get('b')]);
    await turn();
    expect(started.map((s) => s.key).sort()).toEqual(['a', 'b']);
    for (const s of started) s.release();
    expect(await answers).toEqual(['a@0', 'a@0', 'a@0', 'b@0']);
  });

  it('a caller arriving while its key is in flight gets the next read, never the one already started', async () => {
    const { read, started, bump } = heldRead();
    const first = read.get('a');
    await turn();
    expect(started).toHaveLength(1);
    bump(); // a change commits after the first read began
    const late = [read.get('a'), read.get('a')];
    await turn();
    expect(started).toHaveLength(1); // one read per key at a time: the late callers wait
    started[0]!.release();
    expect(await first).toBe('a@0');
    await turn();
    expect(started).toHaveLength(2);
    started[1]!.release();
    expect(await Promise.all(late)).toEqual(['a@1', 'a@1']);
  });

  it('a failed read rejects every caller that shared it, and the next caller reads again', async () => {
    let calls = 0;
    const read = new SharedRead<number>(async () => {
      calls++;
      if (calls === 1) throw new Error('down');
      return calls;
    });
    const results = await Promise.allSettled([read.get('k'), read.get('k')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await read.get('k')).toBe(2);
  });
});
