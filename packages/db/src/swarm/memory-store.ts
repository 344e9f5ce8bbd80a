import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';

/** One blackboard entry: its current value and version (1 on the first write). */
export interface MemoryValue {
  key: string;
  version: number;
  value: Prisma.JsonValue;
  sessionId: string;
}

/** The current value of a key of a run's blackboard, or null. */
export async function memoryGet(db: Db, runId: string, key: string): Promise<MemoryValue | null> {
  return db.memoryEntry.findUnique({ where: { runId_key: { runId, key } }, select: { key: true, version: true, value: true, sessionId: true } });
}

/** Keys of a run's blackboard under any of the prefixes (`""` = all), by key, at most `limit`. */
export async function memoryList(db: Db, runId: string, prefixes: readonly string[], limit: number): Promise<{ key: string; version: number }[]> {
  const any = prefixes.includes('');
  return db.memoryEntry.findMany({
    where: { runId, ...(any ? {} : { OR: prefixes.map((p) => ({ key: { startsWith: p } })) }) },
    select: { key: true, version: true },
    orderBy: { key: 'asc' },
    take: limit,
  });
}

/**
 * Compare-and-set: writes `value` if the key's version is `expectedVersion` (0: the key must not
 * exist yet). Returns the new version, or the current one when another write came first.
 */
export async function memorySet(
  db: Db,
  input: { runId: string; sessionId: string; key: string; value: Prisma.InputJsonValue; expectedVersion: number },
): Promise<{ written: true; version: number } | { written: false; current: number }> {
  const { runId, sessionId, key, value, expectedVersion } = input;
  const json = JSON.stringify(value);
  const rows =
    expectedVersion === 0
      ? await db.$queryRaw<{ version: number }[]>`
        INSERT INTO "MemoryEntry" ("runId", key, version, value, "sessionId", "updatedAt") VALUES (${runId}, ${key}, 1, ${json}::jsonb, ${sessionId}, now())
        ON CONFLICT ("runId", key) DO NOTHING RETURNING version`
      : await db.$queryRaw<{ version: number }[]>`
        UPDATE "MemoryEntry" SET version = version + 1, value = ${json}::jsonb, "sessionId" = ${sessionId}, "updatedAt" = now()
        WHERE "runId" = ${runId} AND key = ${key} AND version = ${expectedVersion} RETURNING version`;
  if (rows[0]) return { written: true, version: rows[0].version };
  const current = await memoryGet(db, runId, key);
  return { written: false, current: current?.version ?? 0 };
}
