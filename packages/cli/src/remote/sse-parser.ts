/** One Server-Sent Events message; `comment` for `: …` lines (heartbeats). */
export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/**
 * An incremental SSE parser (the WHATWG event-stream format): feed it decoded text as it arrives
 * and get back the complete messages. Handles CRLF, LF and CR line ends, multi-line `data:`,
 * comments, and chunks split anywhere, including inside a line.
 */
export class SseParser {
  private buffer = '';
  private current: SseMessage = {};

  push(text: string): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone trailing CR may be the first half of CRLF: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (Object.keys(this.current).length > 0) out.push(this.current);
        this.current = {};
      } else if (line.startsWith(':')) {
        out.push({ comment: line.slice(1).trim() });
      } else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') this.current.data = this.current.data === undefined ? value : `${this.current.data}\n${value}`;
        else if (field === 'id' && !value.includes('\0')) this.current.id = value;
        else if (field === 'event') this.current.event = value;
      }
    }
    return out;
  }
}
