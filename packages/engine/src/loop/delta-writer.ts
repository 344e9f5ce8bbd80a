import type { StepContext } from './step-context';

/**
 * Turns a model's text stream into `model.delta` events, coalesced into chunks of at least
 * `deltaChunkChars` so a long answer is a few rows, not one per token. Chunk boundaries depend only
 * on the stream, so a resumed call (which skips the characters already persisted) writes exactly
 * the chunks an uninterrupted call would have. Appends run in order, behind the stream.
 */
export class DeltaWriter {
  private buffer = '';
  private skip: number;
  private index: number;
  private chain: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly ctx: StepContext,
    private readonly requestId: string,
    private readonly abort: (reason: unknown) => void,
  ) {
    this.skip = ctx.state.cycle?.deltaChars ?? 0;
    this.index = ctx.state.cycle?.deltaCount ?? 0;
  }

  /** The model port's `onDelta`. Synchronous: appends are queued. */
  readonly push = (text: string): void => {
    if (this.failure) return;
    let fresh = text;
    if (this.skip > 0) {
      const n = Math.min(this.skip, fresh.length);
      this.skip -= n;
      fresh = fresh.slice(n);
    }
    if (!fresh) return;
    this.ctx.onDelta?.(this.requestId, fresh);
    if (this.ctx.deltaChunkChars === false) return;
    this.buffer += fresh;
    if (this.buffer.length >= this.ctx.deltaChunkChars) this.flush();
  };

  private flush(): void {
    if (!this.buffer || this.ctx.deltaChunkChars === false) return;
    const event = this.ctx.event('model.delta', { requestId: this.requestId, index: this.index++, text: this.buffer });
    this.buffer = '';
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        await this.ctx.emit([event]);
      } catch (error) {
        // Losing the lease mid-stream: stop paying for tokens nobody can record.
        this.failure = { error };
        this.abort(error);
      }
    });
  }

  /** Flushes the tail and waits for every append; rethrows an append failure. */
  async finish(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.failure) throw this.failure.error;
  }

  /** Rethrows an append failure that aborted the stream, if any (the abort then explains the model error). */
  rethrowFailure(): void {
    if (this.failure) throw this.failure.error;
  }
}
