import { describe, expect, it } from 'vitest';
import { apiTestbed } from '../testing/testbed';

const tb = apiTestbed();

const limits = (by: string | null) =>
  Object.fromEntries(
    ['wallTimeMs', 'cpus', 'memoryBytes', 'pids', 'outputBytes', 'workspaceBytes', 'workspaceFiles', 'tmpBytes'].map((l) => [l, { enforced: by !== null, by }]),
  );

async function probeRow(workerId: string, data: { lastSeenAt?: Date; stoppedAt?: Date | null; drivers?: unknown }) {
  await tb.db.workerSandboxProbe.create({
    data: {
      workerId,
      hostname: 'host-a',
      pid: 42,
      selectedDriver: 'bwrap',
      available: true,
      reason: null,
      drivers: (data.drivers ?? []) as never,
      lastSeenAt: data.lastSeenAt ?? new Date(),
      stoppedAt: data.stoppedAt ?? null,
    },
  });
}

describe('system.sandbox', () => {
  it('returns the probe of live workers only, drivers in a fixed order with every limit', async () => {
    await probeRow('w_live', {
      drivers: [
        {
          driver: 'dangerous-none',
          available: false,
          reason: 'the dangerous-none driver runs only in development (this is production)',
          limitsEnforced: limits(null),
        },
        {
          driver: 'bwrap',
          available: true,
          reason: null,
          limitsEnforced: { ...limits('cgroup-v1'), wallTimeMs: { enforced: true, by: 'supervisor' }, cpus: { enforced: false, by: null, note: 'no cgroup' } },
        },
        { driver: 'podman', available: false, reason: 'podman is not installed', limitsEnforced: limits(null) },
        { driver: 'gvisor', available: true, reason: 'runsc 0.0~20240729.0, platform systrap', limitsEnforced: limits('cgroup-v1'), offered: true },
        { nonsense: true },
      ],
    });
    await probeRow('w_stale', { lastSeenAt: new Date(Date.now() - 10 * 60_000) });
    await probeRow('w_stopped', { stoppedAt: new Date() });
    const api = await tb.as('viewer');
    const { workers } = await api.system.sandbox({ teamId: tb.fx.teamId });
    expect(workers.map((w) => w.workerId)).toEqual(['w_live']);
    const [worker] = workers;
    expect(worker).toMatchObject({ hostname: 'host-a', selectedDriver: 'bwrap', available: true });
    // Weakest isolation first; a probe recorded without `offered` is offered only when it is the selected driver.
    expect(worker!.drivers.map((d) => [d.driver, d.works, d.selected, d.offered, d.level])).toEqual([
      ['bwrap', true, true, true, 1],
      ['podman', false, false, false, 2],
      ['gvisor', true, false, true, 3],
      ['dangerous-none', false, false, false, 0],
    ]);
    const bwrap = worker!.drivers[0]!;
    expect(bwrap.limits).toHaveLength(8);
    expect(bwrap.limits.find((l) => l.limit === 'wallTimeMs')).toEqual({ limit: 'wallTimeMs', enforced: true, by: 'supervisor', note: null });
    expect(bwrap.limits.find((l) => l.limit === 'cpus')).toEqual({ limit: 'cpus', enforced: false, by: null, note: 'no cgroup' });
    expect(worker!.drivers[1]!.reason).toBe('podman is not installed');
  });
});
