import { randomUUID } from 'node:crypto';
import type { Cgroup, CgroupHost, CgroupLimits } from './cgroup';

/**
 * Keeps creating and removing cgroups off an execution's critical path: mkdir and rmdir on
 * cgroupfs cost milliseconds (the kernel waits for RCU), writing limits costs microseconds. One
 * empty spare is made ahead of time; a used cgroup is removed in the background once empty.
 */
export class CgroupSpares {
  private spare: Promise<Cgroup> | null = null;

  constructor(private readonly host: CgroupHost) {}

  /** A cgroup holding `limits`, ready for processes. */
  async acquire(limits: CgroupLimits): Promise<Cgroup> {
    const taken = this.spare;
    this.spare = this.make();
    try {
      if (!taken) throw new Error('no spare yet');
      const group = await taken;
      await group.setLimits(limits);
      return group;
    } catch {
      // No spare, or it was swept by another worker sharing the parent: make one now.
      const group = await this.host.create(name());
      await group.setLimits(limits);
      return group;
    }
  }

  /** Removes a cgroup whose processes are all gone, without making the caller wait. */
  release(group: Cgroup): void {
    void group.destroy().catch(() => undefined);
  }

  private make(): Promise<Cgroup> {
    const made = this.host.create(name());
    made.catch(() => undefined);
    return made;
  }
}

function name(): string {
  return `exec-${randomUUID()}`;
}
