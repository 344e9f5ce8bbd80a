import type { MicrovmGuest } from './microvm-guest';

interface Slot {
  guest: MicrovmGuest | null;
  /** Calls on one guest run one after another. */
  queue: Promise<unknown>;
  busy: number;
  lastUsed: number;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * Booted guests kept warm between calls. A guest is bound at boot to one key (the session's
 * workspace, its uid and its egress socket) and only ever serves calls with that key, so one
 * guest never serves two sessions. An idle guest is shut down after `idleMs`; past `maxGuests`
 * the least recently used idle one goes first.
 */
export class MicrovmPool {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly options: { idleMs: number; maxGuests: number }) {}

  /**
   * Runs `work` on the key's guest, booting one (or replacing one that died or is too small)
   * first. A guest `work` reports broken (it returns `keep: false`) is shut down.
   */
  async with<T>(
    key: string,
    memoryMiB: number,
    boot: () => Promise<MicrovmGuest>,
    work: (guest: MicrovmGuest) => Promise<{ value: T; keep: boolean }>,
  ): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { guest: null, queue: Promise.resolve(), busy: 0, lastUsed: Date.now(), idleTimer: null };
      this.slots.set(key, slot);
    }
    const current = slot;
    current.busy++;
    if (current.idleTimer) clearTimeout(current.idleTimer);
    current.idleTimer = null;
    const turn = current.queue.then(async () => {
      let guest = current.guest;
      if (!guest?.alive || guest.memoryMiB < memoryMiB) {
        current.guest = null;
        if (guest) await guest.kill();
        await this.makeRoom(key);
        guest = await boot();
        current.guest = guest;
      }
      const { value, keep } = await work(guest);
      if (!keep) {
        current.guest = null;
        await guest.kill();
      }
      return value;
    });
    current.queue = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      current.busy--;
      current.lastUsed = Date.now();
      if (current.busy === 0) {
        if (!current.guest?.alive) this.slots.delete(key);
        else current.idleTimer = setTimeout(() => void this.retire(key), this.options.idleMs);
      }
    }
  }

  /** How many guests are booted now. */
  get size(): number {
    return [...this.slots.values()].filter((slot) => slot.guest?.alive).length;
  }

  /** Shuts every guest down (worker shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.slots.keys()].map((key) => this.retire(key, true)));
  }

  private async makeRoom(except: string): Promise<void> {
    const idle = [...this.slots.entries()]
      .filter(([key, slot]) => key !== except && slot.busy === 0 && slot.guest?.alive)
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    while (this.size >= this.options.maxGuests && idle.length > 0) await this.retire(idle.shift()![0]);
  }

  /** Shuts the key's guest down once it is idle (a probe's guest, which no session will use again). */
  async retire(key: string, force = false): Promise<void> {
    const slot = this.slots.get(key);
    if (!slot || (slot.busy > 0 && !force)) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    this.slots.delete(key);
    await slot.guest?.kill();
  }
}
