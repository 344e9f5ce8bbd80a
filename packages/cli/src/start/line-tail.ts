/** Keeps the last `limit` lines written to it, to show when something fails. */
export class LineTail {
  private readonly lines: string[] = [];

  constructor(private readonly limit = 40) {}

  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.limit) this.lines.shift();
  }

  /** The kept lines (or the last `count` of them), oldest first, joined with newlines. */
  text(count = this.limit): string {
    return this.lines.slice(-count).join('\n');
  }
}

/**
 * Splits a byte stream into lines and hands each complete line to `onLine`; a last line without a
 * trailing newline is delivered when the stream ends.
 */
export function forEachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      onLine(pending.slice(0, newline).replace(/\r$/, ''));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
  stream.on('end', () => {
    if (pending !== '') onLine(pending);
    pending = '';
  });
}
