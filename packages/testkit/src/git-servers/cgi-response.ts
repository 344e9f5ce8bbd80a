import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

const MAX_HEADER_BYTES = 64 * 1024;

function headerEnd(buffer: Buffer): { at: number; length: number } | null {
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf === -1 && lf === -1) return null;
  if (lf === -1 || (crlf !== -1 && crlf < lf)) return { at: crlf, length: 4 };
  return { at: lf, length: 2 };
}

/**
 * Streams a CGI program's stdout to `res`: the header block (ended by an empty line) becomes the
 * HTTP status (`Status: 404 Not Found`, 200 when absent) and headers, the rest is the body as it
 * arrives. Resolves with the status once the header block was read; rejects when stdout ends
 * before it.
 */
export function pipeCgiResponse(stdout: Readable, res: ServerResponse): Promise<number> {
  return new Promise((resolve, reject) => {
    let pending = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const end = headerEnd(pending);
      if (!end) {
        if (pending.length > MAX_HEADER_BYTES) fail(new Error('CGI header block too large'));
        return;
      }
      stdout.off('data', onData);
      stdout.off('end', onEnd);
      let status = 200;
      let reason: string | undefined;
      for (const line of pending.subarray(0, end.at).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') {
          const match = /^(\d{3})\s*(.*)$/.exec(value);
          if (match) {
            status = Number(match[1]);
            reason = match[2] || undefined;
          }
        } else {
          res.appendHeader(name, value);
        }
      }
      res.statusCode = status;
      if (reason) res.statusMessage = reason;
      const rest = pending.subarray(end.at + end.length);
      if (rest.length > 0) res.write(rest);
      stdout.pipe(res);
      resolve(status);
    };
    const onEnd = () => fail(new Error('CGI program ended before its header block'));
    const fail = (error: Error) => {
      stdout.off('data', onData);
      stdout.off('end', onEnd);
      reject(error);
    };
    stdout.on('data', onData);
    stdout.on('end', onEnd);
  });
}
