import { Prisma, type Db } from '@looplane/db';
import { canonicalHash } from './rest-json';
import { RestProblem } from './rest-problem';

/** How long a key holds its response: a retry within this window gets the first result. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key still in flight after this long belongs to a request that died (a crash between the run
 * commit and the key's completion); a retry may take it over. Far beyond any request's time.
 */
const IDEMPOTENCY_STALE_MS = 5 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_CHARS = 255;

/** Whose keys these are: a key means the same only for the same token of the same team. */
export interface IdempotencyScope {
  teamId: string;
  tokenId: string;
}

export type IdempotencyClaim = { kind: 'claimed'; id: string } | { kind: 'replay'; status: number; body: unknown };

/** The `Idempotency-Key` header, if sent: 1 to 255 visible ASCII characters (400 otherwise). */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get('idempotency-key');
  if (key === null) return null;
  const bad = (message: string) =>
    new RestProblem(400, 'BAD_REQUEST', `Idempotency-Key ${message}`, { errors: [{ in: 'header', path: 'Idempotency-Key', message }] });
  if (key.length === 0) throw bad('must not be empty');
  if (key.length > MAX_IDEMPOTENCY_KEY_CHARS) throw bad(`must be at most ${MAX_IDEMPOTENCY_KEY_CHARS} characters`);
  if (!/^[\x21-\x7e]+$/.test(key)) throw bad('must be visible ASCII characters (no spaces)');
  return key;
}

/** What a key is bound to: the operation, its path parameters and its body as sent (canonical JSON). */
export function idempotencyHash(operationId: string, params: unknown, body: unknown): string {
  return canonicalHash({ operationId, params, body });
}

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/**
 * Takes `key` for this request, or says what to answer instead. The unique (team, token, key)
 * index decides a race: of two concurrent requests with one key, exactly one inserts; the other
 * waits for that insert's commit, then finds the row (in flight: 409; finished: the replay).
 * Expired keys of the team are deleted first, so an old key is simply new again.
 */
export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope, key: string, requestHash: string, now = new Date()): Promise<IdempotencyClaim> {
  await db.idempotencyKey.deleteMany({ where: { teamId: scope.teamId, expiresAt: { lte: now } } });
  const where = { teamId_tokenId_key: { ...scope, key } };
  // Twice at most: a row released between our insert and our read is simply gone the second time.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const row = await db.idempotencyKey.create({
        data: { ...scope, key, requestHash, lockedAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) },
        select: { id: true },
      });
      return { kind: 'claimed', id: row.id };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await db.idempotencyKey.findUnique({ where });
    if (!existing) continue;
    if (existing.requestHash !== requestHash) {
      throw new RestProblem(
        422,
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used for a different request (another operation or body); send a new key for a new request',
      );
    }
    if (existing.responseStatus !== null) return { kind: 'replay', status: existing.responseStatus, body: existing.responseBody };
    if (existing.lockedAt.getTime() > now.getTime() - IDEMPOTENCY_STALE_MS) {
      throw new RestProblem(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still in progress; retry once it has finished', {
        headers: { 'retry-after': '1' },
      });
    }
    // Compare-and-set on the old lock: of several retries of a dead request, one takes it over.
    const { count } = await db.idempotencyKey.updateMany({
      where: { id: existing.id, lockedAt: existing.lockedAt, responseStatus: null },
      data: { lockedAt: now },
    });
    if (count === 1) return { kind: 'claimed', id: existing.id };
  }
  throw new RestProblem(409, 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still in progress; retry once it has finished', {
    headers: { 'retry-after': '1' },
  });
}

/** Records the response of the request that held the key, for replays until the key expires. */
export async function completeIdempotencyKey(db: Db, id: string, status: number, body: unknown): Promise<void> {
  await db.idempotencyKey.update({
    where: { id },
    data: { responseStatus: status, responseBody: body === null ? Prisma.JsonNull : (body as Prisma.InputJsonValue), completedAt: new Date() },
  });
}

/**
 * Gives the key back after a failed request (a refusal, a validation error the procedure found,
 * a crash inside it): nothing was created, so a retry with the same key runs it again.
 */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { id, responseStatus: null } });
}
