import { AppError } from '@looplane/shared';

type RunSort = 'created' | 'updated';

/** The position after the last row of a page: its sort timestamp and id (the tie-breaker). */
interface RunCursor {
  sort: RunSort;
  at: Date;
  id: string;
}

/** Encodes a keyset position as an opaque URL-safe string. */
export function encodeRunCursor(cursor: RunCursor): string {
  return Buffer.from(`${cursor.sort}|${cursor.at.toISOString()}|${cursor.id}`, 'utf8').toString('base64url');
}

/** Decodes a cursor from {@link encodeRunCursor}; a foreign or tampered one is BAD_REQUEST. */
export function decodeRunCursor(value: string, sort: RunSort): RunCursor {
  const bad = () => new AppError('BAD_REQUEST', 'cursor: not a cursor returned by runs.list');
  if (!/^[A-Za-z0-9_-]+$/.test(value)) throw bad();
  const [kind, at, id, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || (kind !== 'created' && kind !== 'updated') || !at || !id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw bad();
  if (kind !== sort) throw new AppError('BAD_REQUEST', `cursor: it belongs to sort=${kind}, not sort=${sort}`);
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw bad();
  return { sort: kind, at: date, id };
}
