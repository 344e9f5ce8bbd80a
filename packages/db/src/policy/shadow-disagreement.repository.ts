import type { Tx } from '../audit/audit.repository';
import { namedQuery, param } from '../sql/named-query';

/** A live call the shadow version decided otherwise than the active one, as one row stores it. */
export interface ShadowDisagreementRow {
  teamId: string;
  shadowId: string;
  /** The call's identity (session, call id, what it asks): unique, so a call is recorded once. */
  callKey: string;
  runId: string;
  sessionId: string;
  callId: string;
  /** The session seq of the call's `policy.decided` event (null when it is not known). */
  seq: number | null;
  tool: string;
  activeVersion: number;
  activeOutcome: string;
  activeRuleId: string;
  shadowVersion: number;
  shadowOutcome: string;
  shadowRuleId: string;
}

const INSERT_SQL = namedQuery({
  name: 'looplane_policy_shadow_disagreement_insert_v1',
  params: {
    team_id: param.text,
    shadow_id: param.text,
    call_key: param.text,
    run_id: param.text,
    session_id: param.text,
    call_id: param.text,
    seq: param.nullableInt,
    tool: param.text,
    active_version: param.int,
    active_outcome: param.text,
    active_rule_id: param.text,
    shadow_version: param.int,
    shadow_outcome: param.text,
    shadow_rule_id: param.text,
  },
  text: `
INSERT INTO "PolicyShadowDisagreement" (id, "teamId", "shadowId", "callKey", "runId", "sessionId", "callId", seq, tool,
  "activeVersion", "activeOutcome", "activeRuleId", "shadowVersion", "shadowOutcome", "shadowRuleId")
VALUES (gen_random_uuid()::text, :team_id, :shadow_id, :call_key, :run_id, :session_id, :call_id, :seq, :tool,
  :active_version, :active_outcome, :active_rule_id, :shadow_version, :shadow_outcome, :shadow_rule_id)
ON CONFLICT ("callKey") DO NOTHING`,
});

/**
 * Inserts a disagreement unless its call is recorded already (same `callKey`): true when this
 * call wrote it. Runs on the caller's Prisma transaction, so the row commits together with its
 * audit row, or neither does.
 */
export async function insertShadowDisagreement(tx: Tx, row: ShadowDisagreementRow): Promise<boolean> {
  const insert = INSERT_SQL.bind({
    team_id: row.teamId,
    shadow_id: row.shadowId,
    call_key: row.callKey,
    run_id: row.runId,
    session_id: row.sessionId,
    call_id: row.callId,
    seq: row.seq,
    tool: row.tool,
    active_version: row.activeVersion,
    active_outcome: row.activeOutcome,
    active_rule_id: row.activeRuleId,
    shadow_version: row.shadowVersion,
    shadow_outcome: row.shadowOutcome,
    shadow_rule_id: row.shadowRuleId,
  });
  return (await tx.$executeRawUnsafe(insert.text, ...insert.values)) > 0;
}
