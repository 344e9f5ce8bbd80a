import { z } from 'zod';
import { GENESIS_HASH, chainHash, type AuditRowContent } from './chain';

/** An audit row with its chain fields: one line of an export, or one row read back from the database. */
export interface ChainedAuditRow extends AuditRowContent {
  prevHash: string;
  hash: string;
}

/** Where and why a chain is broken. `position` is 1-based among the rows walked. */
export interface ChainBreak {
  position: number;
  seq: number | null;
  reason: string;
}

export type ChainResult = { ok: true; rows: number; headHash: string } | { ok: false; rows: number; broken: ChainBreak };

/**
 * Walks one team's chain row by row, from its first row. A row is sound when its `seq` follows the
 * previous one, its `prevHash` is the previous row's `hash` (the genesis hash for seq 1) and its
 * `hash` is `sha256(prevHash + canonical(row))`. Edited rows fail the hash; removed, inserted or
 * reordered rows fail the sequence or the link. The database walk and the offline verifier both
 * use this class, so they cannot disagree.
 */
export class ChainVerifier {
  private count = 0;
  private lastSeq = 0;
  private lastHash = GENESIS_HASH;
  private brokenAt: ChainBreak | null = null;

  /** @param teamId the team whose chain this is; when null, the first row's team. */
  constructor(private teamId: string | null = null) {}

  /** Checks the next row; returns the break (also kept) or null when the row is sound. */
  push(row: ChainedAuditRow): ChainBreak | null {
    if (this.brokenAt) return this.brokenAt;
    this.count += 1;
    const reason = this.check(row);
    if (reason) {
      this.brokenAt = { position: this.count, seq: Number.isInteger(row.seq) ? row.seq : null, reason };
      return this.brokenAt;
    }
    this.lastSeq = row.seq;
    this.lastHash = row.hash;
    return null;
  }

  /** Records a row that could not even be read (bad JSON, missing fields). */
  fail(reason: string): ChainBreak {
    if (!this.brokenAt) {
      this.count += 1;
      this.brokenAt = { position: this.count, seq: null, reason };
    }
    return this.brokenAt;
  }

  /** The verdict for the rows pushed so far. */
  result(): ChainResult {
    return this.brokenAt ? { ok: false, rows: this.count, broken: this.brokenAt } : { ok: true, rows: this.count, headHash: this.lastHash };
  }

  private check(row: ChainedAuditRow): string | null {
    this.teamId ??= row.teamId;
    if (row.teamId !== this.teamId) return `belongs to team ${row.teamId}, not ${this.teamId}`;
    const expectedSeq = this.lastSeq + 1;
    if (row.seq !== expectedSeq) {
      return `seq ${row.seq} where seq ${expectedSeq} was expected (a row was removed, inserted or reordered)`;
    }
    if (row.prevHash !== this.lastHash) {
      return `prevHash does not match the hash of the row before (a row was removed, inserted or reordered)`;
    }
    const { prevHash, hash, ...content } = row;
    if (chainHash(prevHash, content) !== hash) return `hash does not match the row's content (the row was edited)`;
    return null;
  }
}

/** The first line of an export: what it claims to hold, so a truncated file is caught too. */
const auditExportHeaderSchema = z.object({
  format: z.literal('looplane.audit.v1'),
  teamId: z.string(),
  rows: z.int().nonnegative(),
  headHash: z.string(),
  exportedAt: z.string(),
});
export type AuditExportHeader = z.infer<typeof auditExportHeaderSchema>;

/** One row line of an export: every field the hash covers, plus the chain fields. */
const auditExportRowSchema = z
  .object({
    teamId: z.string(),
    seq: z.int(),
    actorType: z.enum(['user', 'token', 'system']),
    actorId: z.string().nullable(),
    action: z.string(),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    data: z.unknown(),
    ip: z.string().nullable(),
    createdAt: z.string(),
    prevHash: z.string(),
    hash: z.string(),
  })
  .strict();

/** The export line of a row (keys in a fixed order so exports are stable byte for byte). */
export function toExportLine(row: ChainedAuditRow): string {
  const { teamId, seq, actorType, actorId, action, targetType, targetId, data, ip, createdAt, prevHash, hash } = row;
  return JSON.stringify({ teamId, seq, actorType, actorId, action, targetType, targetId, data: data ?? {}, ip, createdAt, prevHash, hash });
}

/** The verdict on an export file; `line` is the 1-based line of the file that broke it. */
export type ExportVerification =
  | { ok: true; teamId: string | null; rows: number; headHash: string }
  | { ok: false; rows: number; line: number; seq: number | null; reason: string };

/**
 * Verifies a JSON Lines export offline: a header line, then every row of one team's chain from
 * seq 1. Fails on the first edited, removed, inserted or reordered line, and when the file holds
 * fewer or more rows than its header says (a cut-off tail leaves the chain itself intact).
 */
export function verifyAuditExport(text: string): ExportVerification {
  const lines = text
    .split('\n')
    .map((line, i) => ({ line: i + 1, text: line.replace(/\r$/, '') }))
    .filter((l) => l.text.trim() !== '');
  const first = lines[0];
  if (!first) return { ok: false, rows: 0, line: 1, seq: null, reason: 'the file is empty' };
  const header = auditExportHeaderSchema.safeParse(safeJson(first.text));
  if (!header.success) return { ok: false, rows: 0, line: first.line, seq: null, reason: 'the first line is not a Looplane audit export header' };
  const verifier = new ChainVerifier(header.data.teamId);
  for (const { line, text: body } of lines.slice(1)) {
    const parsed = auditExportRowSchema.safeParse(safeJson(body));
    const broken = parsed.success ? verifier.push(parsed.data) : verifier.fail('the line is not an audit row');
    if (broken) return { ok: false, rows: broken.position - 1, line, seq: broken.seq, reason: broken.reason };
  }
  const result = verifier.result();
  if (!result.ok) throw new Error('unreachable: a break returns early');
  const last = lines.at(-1)!;
  if (result.rows !== header.data.rows) {
    return {
      ok: false,
      rows: result.rows,
      line: last.line,
      seq: null,
      reason: `the header says ${header.data.rows} rows, the file has ${result.rows} (rows were removed or added at the end)`,
    };
  }
  if (result.headHash !== header.data.headHash) {
    return { ok: false, rows: result.rows, line: last.line, seq: null, reason: 'the last row’s hash is not the header’s headHash' };
  }
  return { ok: true, teamId: header.data.teamId, rows: result.rows, headHash: result.headHash };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
