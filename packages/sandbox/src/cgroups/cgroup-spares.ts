import { randomUUID } from 'node:crypto';
import { chown } from 'node:fs/promises';
import type { Cgroup, CgroupHost, CgroupLimits } from './cgroup';

/** A cgroup ready for one execution: limits written, and (v1) the files through which its launcher moves itself in. */
export interface ReadyCgroup {
  group: Cgroup;
  /**
   * The group's `tasks` files (v1), given to the execution's uid by `acquire`: the launcher, as
   * that uid, writes "0" to each to move itself in before it forks anything. null on v2.
   */
  attachFiles: string[] | null;
}

interface Spare {
  ready: Promise<ReadyCgroup>;
  limits: CgroupLimits;
}

/**
 * Keeps cgroup work off an execution's critical path. mkdir on cgroupfs and each write cost an
 * event-loop round trip through the thread pool, and moving another process into a v1 cgroup
 * waits for an RCU grace period (milliseconds, more on a busy host). So spares are made ahead,
 * holding the limits the last execution used. A used cgroup is never reused (its OOM counter and
 * charges belong to that execution): it is removed in the background once empty.
 */
export class CgroupSpares {
  private spares: Spare[] = [];
  private lastLimits: CgroupLimits | null = null;
  private closed = false;

  constructor(
    private readonly host: CgroupHost,
    /** How many ready cgroups to keep: concurrent executions beyond it make theirs on the spot. */
    private readonly size = 2,
  ) {}

  /**
   * A cgroup holding `limits`, ready for processes. With `owner` (a root worker), its `tasks`
   * files are given to that uid, so the launcher moves itself in with its own credentials: the
   * kernel then lets it move only processes of its own uid, and only into this cgroup (the limit
   * files stay root's). No descriptor carrying the worker's credentials ever leaves the worker.
   */
  async acquire(limits: CgroupLimits, owner?: { uid: number; gid: number }): Promise<ReadyCgroup> {
    const ready = await this.take(limits);
    try {
      if (owner && ready.attachFiles) await Promise.all(ready.attachFiles.map((file) => chown(file, owner.uid, owner.gid)));
    } catch (error) {
      this.release(ready);
      throw error;
    }
    return ready;
  }

  private async take(limits: CgroupLimits): Promise<ReadyCgroup> {
    this.lastLimits = limits;
    // Refilled on release, not here: making a spare is a dozen thread-pool round trips that
    // would compete with this execution's start for the event loop.
    const spare = this.spares.shift();
    if (spare) {
      const ready = await spare.ready.catch(() => null);
      if (ready) {
        if (!sameLimits(spare.limits, limits)) await ready.group.setLimits(limits);
        return ready;
      }
      // Swept by another worker sharing the parent, or creation failed: make one now.
    }
    return this.make(limits);
  }

  /** Makes spares for `limits` ahead of the first execution. */
  prime(limits: CgroupLimits): void {
    this.lastLimits ??= limits;
    this.refill();
  }

  /** Removes the cgroup once empty, without making the caller wait. */
  release(ready: ReadyCgroup): void {
    void ready.group.destroy().catch(() => undefined);
    this.refill();
  }

  /** Removes the spares (driver shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    const spares = this.spares.splice(0);
    await Promise.all(
      spares.map(async (spare) => {
        const ready = await spare.ready.catch(() => null);
        if (ready) this.release(ready);
      }),
    );
  }

  private refill(): void {
    if (!this.lastLimits || this.closed) return;
    while (this.spares.length < this.size) {
      const limits = this.lastLimits;
      const ready = this.make(limits);
      ready.catch(() => undefined);
      this.spares.push({ ready, limits });
    }
  }

  private async make(limits: CgroupLimits): Promise<ReadyCgroup> {
    const group = await this.host.create(`exec-${randomUUID()}`);
    try {
      await group.setLimits(limits);
      return { group, attachFiles: group.selfAttachFiles() };
    } catch (error) {
      await group.destroy().catch(() => undefined);
      throw error;
    }
  }
}

function sameLimits(a: CgroupLimits, b: CgroupLimits): boolean {
  return a.memoryBytes === b.memoryBytes && a.pids === b.pids && a.cpus === b.cpus;
}
