import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UidAllocator } from './uid-allocator';
import { diskUsage } from './disk-usage';
import { writeFile, mkdir } from 'node:fs/promises';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'uids-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('UidAllocator', () => {
  it('gives each session its own uid, the same one again when asked twice, and reuses released ones', async () => {
    const uids = new UidAllocator(join(dir, 'a'), 900_000, 4);
    const a = await uids.allocate('session-a');
    expect(await uids.allocate('session-a')).toBe(a);
    const all = await Promise.all(['b', 'c', 'd'].map((s) => uids.allocate(`session-${s}`)));
    expect(new Set([a, ...all]).size).toBe(4);
    await expect(uids.allocate('session-e')).rejects.toThrow(/all 4 sandbox uids are in use/);
    await uids.release(a);
    expect(await uids.allocate('session-e')).toBe(a);
  });

  it('refuses a range that holds real accounts or leaves the safe interval', async () => {
    await expect(new UidAllocator(join(dir, 'b'), 0, 10).allocate('s')).rejects.toThrow(/1000\.\.2\^31-1/);
    await expect(new UidAllocator(join(dir, 'c'), 65_000, 1000).allocate('s')).rejects.toThrow(/contains the account nobody/);
  });
});

describe('diskUsage', () => {
  it('counts allocated bytes and entries, and stops early past a limit', async () => {
    const root = join(dir, 'tree');
    await mkdir(join(root, 'd'), { recursive: true });
    await writeFile(join(root, 'd', 'f'), Buffer.alloc(64 * 1024, 1));
    const usage = await diskUsage(root);
    expect(usage.entries).toBe(2);
    expect(usage.bytes).toBeGreaterThanOrEqual(64 * 1024);
    expect((await diskUsage(root, { bytes: 1, entries: 10 })).partial).toBe(true);
  });
});
