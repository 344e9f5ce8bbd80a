/**
 * Runs work one at a time per key, in call order, within this process; work on other keys runs
 * freely. A failing piece of work does not block the next one.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` once every earlier call with the same key has settled. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.catch(() => undefined);
    this.tails.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    }
  }

  /** Whether work with this key is running or queued. */
  held(key: string): boolean {
    return this.tails.has(key);
  }
}
