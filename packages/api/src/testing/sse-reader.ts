/** One parsed SSE message (or a comment, for heartbeats). */
export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: number;
}

/** Reads an SSE response body message by message (test helper; the CLI has its own client). */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private queue: SseMessage[] = [];

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next message, or null at the end of the stream; rejects after `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<SseMessage | null> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE message within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no SSE message within ${timeoutMs} ms`)), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) return null;
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
      this.drain();
    }
    return this.queue.shift() ?? null;
  }

  /** The next `count` data messages (comments and `retry` skipped), parsed as JSON. */
  async data<T = Record<string, unknown>>(count: number, timeoutMs = 5000): Promise<Array<{ id?: string; data: T }>> {
    const out: Array<{ id?: string; data: T }> = [];
    while (out.length < count) {
      const message = await this.next(timeoutMs);
      if (!message) throw new Error(`stream ended after ${out.length} of ${count} messages`);
      if (message.data !== undefined) out.push({ ...(message.id !== undefined ? { id: message.id } : {}), data: JSON.parse(message.data) as T });
    }
    return out;
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private drain(): void {
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const message: SseMessage = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) message.comment = line.slice(1).trim();
        else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') message.id = value;
          else if (field === 'event') message.event = value;
          else if (field === 'data') message.data = message.data === undefined ? value : `${message.data}\n${value}`;
          else if (field === 'retry') message.retry = Number(value);
        }
      }
      this.queue.push(message);
    }
  }
}
