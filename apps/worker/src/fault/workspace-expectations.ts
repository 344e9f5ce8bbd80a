import { gunzipSync } from 'node:zlib';
import type { Db } from '@looplane/db';

/**
 * What a session's files must be, replayed from its log: every `write_file` and `shell` call that
 * finished `ok` in order, through the chain of sessions (a fork: its parent's log up to the fork point, then its own) (a call interrupted by a lost host wrote nothing that counts: its
 * workspace is put back at the last recorded commit). The host-loss tests write with
 * `write_file`, and with one shell line that concatenates two earlier files (see
 * {@link CONCAT_COMMAND}).
 */
export const CONCAT_COMMAND = 'test -f a.txt && test -f dir/b.txt && cat a.txt dir/b.txt > dir/ab.txt';

export async function expectedFiles(db: Db, chain: readonly { sessionId: string; upTo?: number }[]): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const { sessionId, upTo } of chain) {
    const events = await db.event.findMany({
      where: { sessionId, ...(upTo !== undefined ? { seq: { lte: upTo } } : {}), type: { in: ['tool.started', 'tool.finished'] } },
      orderBy: { seq: 'asc' },
      select: { type: true, payload: true },
    });
    const started = new Map<string, { name: string; args: Record<string, unknown> }>();
    for (const event of events) {
      const payload = event.payload as { callId: string; name?: string; args?: Record<string, unknown>; ok?: boolean };
      if (event.type === 'tool.started') started.set(payload.callId, { name: payload.name ?? '', args: payload.args ?? {} });
      else if (payload.ok) {
        const call = started.get(payload.callId);
        if (call?.name === 'write_file') files[String(call.args.path)] = String(call.args.content);
        if (call?.name === 'shell' && call.args.command === CONCAT_COMMAND) files['dir/ab.txt'] = `${files['a.txt']}${files['dir/b.txt']}`;
      }
    }
  }
  return files;
}

/** The regular files of a gzipped tar (ustar, with git's pax headers skipped). */
export function tarFiles(gzipped: Buffer): Record<string, string> {
  const tar = gunzipSync(gzipped);
  const files: Record<string, string> = {};
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    if (type === '0') files[name] = tar.subarray(at + 512, at + 512 + size).toString('utf8');
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
