import type { Db } from '../client';
import type { AuditLog } from '../generated/prisma/client';
import { GENESIS_HASH } from './chain';
import { ChainVerifier, toExportLine, type AuditExportHeader, type ChainResult, type ChainedAuditRow } from './chain-verify';

/** Rows read per query while walking a chain: bounded memory however long the chain is. */
const BATCH = 1000;

/** A stored audit row as the chain sees it (createdAt as the ISO string that was hashed). */
function chainedRowOf(row: AuditLog): ChainedAuditRow {
  return {
    teamId: row.teamId,
    seq: row.seq,
    actorType: row.actorType,
    actorId: row.actorId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    data: row.data,
    ip: row.ip,
    createdAt: row.createdAt.toISOString(),
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

/** Every row of a team's chain in seq order, read in batches. */
async function* walkTeamAudit(db: Db, teamId: string): AsyncGenerator<ChainedAuditRow> {
  let after = 0;
  for (;;) {
    const rows = await db.auditLog.findMany({ where: { teamId, seq: { gt: after } }, orderBy: { seq: 'asc' }, take: BATCH });
    for (const row of rows) yield chainedRowOf(row);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.seq;
  }
}

/** Walks a team's stored chain from seq 1 and names the first broken row, if any. */
export async function verifyTeamAudit(db: Db, teamId: string): Promise<ChainResult> {
  const verifier = new ChainVerifier(teamId);
  for await (const row of walkTeamAudit(db, teamId)) {
    if (verifier.push(row)) break;
  }
  return verifier.result();
}

/**
 * A team's whole chain as JSON Lines: a header line (`format`, `teamId`, `rows`, `headHash`), then
 * one line per row with every hashed field and the chain fields. Always the whole chain: a slice
 * could not be verified from the genesis hash offline.
 */
export async function exportTeamAudit(db: Db, teamId: string, now: Date = new Date()): Promise<{ text: string; rows: number; headHash: string }> {
  const lines: string[] = [];
  let headHash = GENESIS_HASH;
  for await (const row of walkTeamAudit(db, teamId)) {
    lines.push(toExportLine(row));
    headHash = row.hash;
  }
  const header: AuditExportHeader = { format: 'looplane.audit.v1', teamId, rows: lines.length, headHash, exportedAt: now.toISOString() };
  return { text: `${[JSON.stringify(header), ...lines].join('\n')}\n`, rows: lines.length, headHash };
}
