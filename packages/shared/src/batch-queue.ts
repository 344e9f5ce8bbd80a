/** A queued item: whoever processes its batch settles it; `reject` is used if processing throws. */
export interface BatchItem {
  reject(error: unknown): void;
}

export interface BatchQueueOptions {
  /** Most items handed to one `process` call. */
  maxBatch: number;
  /** Most `process` calls in flight at once; what arrives meanwhile waits for the next batch. */
  parallel: number;
}

/**
 * Gathers work that arrives together into batches: items pushed in the same turn of the event loop,
 * or while `parallel` batches are in flight, are processed by one call. Under a burst this turns
 * N round trips into a few; alone, an item waits only for the end of the current turn.
 *
 * Processing starts at the end of the turn (setImmediate), not at once, so the first arrivals of a
 * burst do not go alone while the rest queue behind them. `process` settles every item of its batch;
 * if it throws, every item of that batch is rejected with the error (nothing is left pending).
 */
export class BatchQueue<T extends BatchItem> {
  private readonly queue: T[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly process: (batch: T[]) => Promise<void>,
    private readonly options: BatchQueueOptions,
  ) {}

  /** Items waiting for a batch (not counting those in flight). */
  get waiting(): number {
    return this.queue.length;
  }

  push(item: T): void {
    this.queue.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.options.parallel && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(batch: T[]): Promise<void> {
    try {
      await this.process(batch);
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }
}
