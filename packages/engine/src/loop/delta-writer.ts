import { endsInHighSurrogate, storableText } from '../events/storable-text';
import { DELTA_LOG_MAX_CHARS } from '../model/output-cap';
import type { StepContext } from './step-context';

/**
 * Turns a model's text stream into `model.delta` events, coalesced into chunks of at least
 * `deltaChunkChars` so a long answer is a few rows, not one per token. Chunk boundaries depend only
 * on the stream, so a resumed call (which skips the characters already persisted) writes exactly
 * the chunks an uninterrupted call would have. Appends run in order, behind the stream.
 *
 * The log keeps at most {@link DELTA_LOG_MAX_CHARS} of one answer as deltas: a live view while it
 * is written. The answer itself is recorded once, whole, by `model.responded`; past the preview the
 * stream still reaches live listeners (`onDelta`) but writes no more rows.
 */
export class DeltaWriter {
  private buffer = '';
  private skip: number;
  private index: number;
  /** What the preview may still log in this call (the buffer included). */
  private room: number;
  private chain: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  /** Everything the model streamed in this call (what a failed call is charged for). */
  streamed = '';

  constructor(
    private readonly ctx: StepContext,
    private readonly requestId: string,
    private readonly abort: (reason: unknown) => void,
  ) {
    this.skip = ctx.state.cycle?.deltaChars ?? 0;
    this.index = ctx.state.cycle?.deltaCount ?? 0;
    this.room = Math.max(0, DELTA_LOG_MAX_CHARS - this.skip);
  }

  /** The model port's `onDelta`. Synchronous: appends are queued. */
  readonly push = (text: string): void => {
    if (this.failure) return;
    this.streamed += text;
    let fresh = text;
    if (this.skip > 0) {
      const n = Math.min(this.skip, fresh.length);
      this.skip -= n;
      fresh = fresh.slice(n);
    }
    if (!fresh) return;
    this.ctx.onDelta?.(this.requestId, fresh);
    if (this.ctx.deltaChunkChars === false || this.buffer.length >= this.room) return;
    this.buffer += fresh.slice(0, this.room - this.buffer.length);
    // The preview's last chunk is written at once, whatever its length (the cut depends only on the stream).
    if (this.buffer.length >= this.room) this.flush(true);
    else if (this.buffer.length >= this.ctx.deltaChunkChars) this.flush();
  };

  /**
   * Appends the buffer as one delta. Mid-stream, a first surrogate half at the end waits for the
   * next chunk (its second half is probably next), so a pair is never cut into two "lone" halves.
   * Text the log cannot hold is replaced (events/storable-text.ts) one unit for one, so the
   * chunk lengths a resume skips by stay those of the stream.
   */
  private flush(final = false): void {
    if (!this.buffer || this.ctx.deltaChunkChars === false) return;
    const held = !final && this.buffer.length > 1 && endsInHighSurrogate(this.buffer) ? 1 : 0;
    const raw = this.buffer.slice(0, this.buffer.length - held);
    this.buffer = this.buffer.slice(this.buffer.length - held);
    this.room -= raw.length;
    const text = storableText(raw);
    const event = this.ctx.event('model.delta', {
      requestId: this.requestId,
      index: this.index++,
      text,
      ...(text !== raw ? { sanitized: true as const } : {}),
    });
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
    this.flush(true);
    await this.chain;
    if (this.failure) throw this.failure.error;
  }

  /** Rethrows an append failure that aborted the stream, if any (the abort then explains the model error). */
  rethrowFailure(): void {
    if (this.failure) throw this.failure.error;
  }
}
