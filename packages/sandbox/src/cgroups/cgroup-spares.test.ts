import { describe, expect, it } from 'vitest';
import type { Cgroup, CgroupHost, CgroupLimits } from './cgroup';
import { CgroupSpares } from './cgroup-spares';

/** A host whose cgroups record what was done to them (no cgroupfs needed). */
function fakeHost() {
  const made: { name: string; limits: CgroupLimits[]; destroyed: boolean }[] = [];
  const host: CgroupHost = {
    version: 'v2',
    controllers: { memory: true, pids: true, cpu: true },
    create: async (name) => {
      const record = { name, limits: [] as CgroupLimits[], destroyed: false };
      made.push(record);
      const group: Cgroup = {
        setLimits: async (limits) => void record.limits.push(limits),
        add: async () => undefined,
        selfAttachFiles: () => null,
        killAll: async () => undefined,
        oomKilled: async () => false,
        destroy: async () => {
          record.destroyed = true;
        },
      };
      return group;
    },
    sweep: async () => undefined,
  };
  return { host, made };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const A: CgroupLimits = { memoryBytes: 1 << 20, pids: 10, cpus: 1 };
const B: CgroupLimits = { memoryBytes: 2 << 20, pids: 20, cpus: 0.5 };

describe('cgroup spares', () => {
  it('hands out spares made ahead with the limits already written, and never reuses a used cgroup', async () => {
    const { host, made } = fakeHost();
    const spares = new CgroupSpares(host, 2);
    spares.prime(A);
    await settle();
    expect(made).toHaveLength(2);
    const first = await spares.acquire(A);
    // Already holding A: nothing written on the execution's path.
    expect(made[0]?.limits).toEqual([A]);
    spares.release(first);
    await settle();
    expect(made[0]?.destroyed).toBe(true);
    expect(made).toHaveLength(3); // refilled after the release, not during the execution
    const second = await spares.acquire(A);
    expect(second).not.toBe(first);
    await spares.close();
    spares.release(second);
    await settle();
    expect(made).toHaveLength(3); // closed: no more spares
  });

  it('rewrites a spare whose limits differ, and makes one on the spot when none is left', async () => {
    const { host, made } = fakeHost();
    const spares = new CgroupSpares(host, 1);
    spares.prime(A);
    await settle();
    await spares.acquire(B);
    expect(made[0]?.limits).toEqual([A, B]);
    await spares.acquire(B);
    expect(made).toHaveLength(2);
    expect(made[1]?.limits).toEqual([B]);
  });
});
