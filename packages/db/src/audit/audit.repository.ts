import type { Db } from '../client';
import type { Prisma } from '../generated/prisma/client';
import { GENESIS_HASH, chainHash, type AuditRowContent } from './chain';
import { namedQuery, param } from '../sql/named-query';

/** A Prisma transaction client (what `$transaction(async (tx) => …)` passes in). */
export type Tx = Prisma.TransactionClient;

/** Who acted. Tokens act on behalf of their creator; both are recorded. */
export type AuditActor = { type: 'user'; userId: string } | { type: 'token'; tokenId: string; userId: string } | { type: 'system'; name: string };

export interface AuditEntry {
  teamId: string;
  actor: AuditActor;
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Record<string, unknown>;
  ip?: string | null;
}

function actorFields(actor: AuditActor): Pick<AuditRowContent, 'actorType' | 'actorId'> {
  switch (actor.type) {
    case 'user':
      return { actorType: 'user', actorId: actor.userId };
    case 'token':
      return { actorType: 'token', actorId: actor.tokenId };
    case 'system':
      return { actorType: 'system', actorId: actor.name };
  }
}

/** The hashed content of an entry's row at `seq` (a token actor's row names who it acted for). */
export function auditRowContent(entry: AuditEntry, seq: number): AuditRowContent {
  return {
    teamId: entry.teamId,
    seq,
    ...actorFields(entry.actor),
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    data: entry.actor.type === 'token' ? { ...entry.data, onBehalfOf: entry.actor.userId } : (entry.data ?? {}),
    ip: entry.ip ?? null,
    createdAt: new Date().toISOString(),
  };
}

/** The team's chain lock (the key every chain writer takes: `audit:<teamId>`), held until the transaction ends. */
export const AUDIT_LOCK_SQL = namedQuery({
  name: 'looplane_audit_lock',
  params: { lock_key: param.text },
  text: 'SELECT pg_advisory_xact_lock(hashtextextended(:lock_key, 0))',
});
// audit-chain.functions.sql takes the same lock, by the same key.
export const auditLockKey = (teamId: string) => `audit:${teamId}`;

/**
 * Appends one row to the team's hash chain inside the caller's transaction, so the audit row
 * commits or rolls back with the change it describes. A transaction-scoped advisory lock per
 * team serialises appends, which keeps `seq` gap-free and `prevHash` pointing at the true tail.
 */
export async function appendAudit(tx: Tx, entry: AuditEntry): Promise<{ seq: number; hash: string }> {
  const lock = AUDIT_LOCK_SQL.bind({ lock_key: auditLockKey(entry.teamId) });
  await tx.$executeRawUnsafe(lock.text, ...lock.values);
  const tail = await tx.auditLog.findFirst({
    where: { teamId: entry.teamId },
    orderBy: { seq: 'desc' },
    select: { seq: true, hash: true },
  });
  const content = auditRowContent(entry, (tail?.seq ?? 0) + 1);
  const prevHash = tail?.hash ?? GENESIS_HASH;
  const hash = chainHash(prevHash, content);
  await tx.auditLog.create({
    data: {
      ...content,
      data: content.data as Prisma.InputJsonValue,
      createdAt: new Date(content.createdAt),
      prevHash,
      hash,
    },
  });
  return { seq: content.seq, hash };
}

/** Appends an audit row in a transaction of its own (for actions with no other write). */
export function recordAudit(db: Db, entry: AuditEntry): Promise<{ seq: number; hash: string }> {
  return db.$transaction((tx) => appendAudit(tx, entry));
}
