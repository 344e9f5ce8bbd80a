/**
 * Coalesces reads by key: while `parallel` loads are in flight, keys asked for meanwhile wait
 * and go together into the next load (hundreds of jobs arriving together become a few queries
 * instead of hundreds queued for a pool connection). Alone, a read is loaded at once. A failed
 * load fails every read of its batch.
 */
export class ReadBatcher<K, V> {
  private queue = new Map<K, { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]>();
  private running = 0;

  constructor(
    private readonly load: (keys: K[]) => Promise<Map<K, V>>,
    private readonly options: { maxBatch?: number; parallel?: number } = {},
  ) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.queue.get(key);
      if (waiting) return waiting.push({ resolve, reject });
      this.queue.set(key, [{ resolve, reject }]);
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < (this.options.parallel ?? 2) && this.queue.size > 0) {
      const batch = new Map<K, { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]>();
      for (const [key, waiters] of this.queue) {
        if (batch.size >= (this.options.maxBatch ?? 500)) break;
        batch.set(key, waiters);
        this.queue.delete(key);
      }
      this.running++;
      this.load([...batch.keys()])
        .then(
          (values) => {
            for (const [key, waiters] of batch) for (const w of waiters) w.resolve(values.get(key));
          },
          (error: unknown) => {
            for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
          },
        )
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}
