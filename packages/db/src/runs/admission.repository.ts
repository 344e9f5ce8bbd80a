import { claimSessions, type ClaimedSession } from './lease.repository';
import type { PgPool } from './pg-pool';

/** A session whose run needs a concurrency slot before it may run (its run is queued or waiting). */
export interface AdmissionCandidate {
  sessionId: string;
  runId: string;
  agentId: string | null;
}

export type AdmissionVerdict =
  | { kind: 'claimed'; claim: ClaimedSession; runStarted: boolean }
  /** Over the team's or the agent's limit of running runs: try again later. */
  | { kind: 'deferred' }
  /** Finished, or another worker holds it: nothing to do. */
  | { kind: 'unavailable' };

const LIMITS_SQL = `
SELECT
  (SELECT "maxConcurrentRuns" FROM "Team" WHERE id = $1::text) AS "teamLimit",
  (SELECT count(*)::int FROM "Run" WHERE "teamId" = $1::text AND status = 'running') AS "teamRunning",
  (SELECT COALESCE(json_agg(json_build_object('id', a.id, 'limit', a."maxConcurrentRuns",
      'running', (SELECT count(*) FROM "Run" x WHERE x."teamId" = $1::text AND x."agentId" = a.id AND x.status = 'running'))), '[]'::json)
   FROM "AgentTemplate" a WHERE a.id = ANY($2::text[]) AND a."maxConcurrentRuns" IS NOT NULL) AS agents,
  (SELECT COALESCE(json_agg(json_build_object('id', r.id, 'status', r.status)), '[]'::json)
   FROM "Run" r WHERE r.id = ANY($3::text[])) AS runs`;

const START_RUNS_SQL = `
UPDATE "Run" SET status = 'running', "waitReason" = NULL, "updatedAt" = statement_timestamp()
WHERE id = ANY($1::text[]) AND status IN ('queued', 'waiting')
RETURNING id`;

interface Limits {
  teamLimit: number | null;
  teamRunning: number;
  agents: { id: string; limit: number; running: number }[];
  runs: { id: string; status: string }[];
}

/**
 * Admits a batch of one team's sessions under the team's and the agents' limits on running runs,
 * and claims the admitted ones, in one transaction serialised per team by an advisory lock (so
 * workers on many machines never admit past a limit together). A run counts as running from its
 * admission until it waits or finishes. Candidates are admitted in the order given.
 */
export async function admitAndClaim(
  pool: PgPool,
  teamId: string,
  candidates: readonly AdmissionCandidate[],
  owner: string,
  ttlMs: number,
): Promise<AdmissionVerdict[]> {
  const client = await pool.connect();
  const onIdleError = () => undefined;
  client.on('error', onIdleError);
  try {
    await client.query('BEGIN');
    await client.query({ name: 'looplane_admission_lock_v1', text: `SELECT pg_advisory_xact_lock(hashtextextended('looplane:admission:' || $1::text, 0))`, values: [teamId] });
    const agentIds = [...new Set(candidates.flatMap((c) => (c.agentId ? [c.agentId] : [])))];
    const found = await client.query({ name: 'looplane_admission_limits_v1', text: LIMITS_SQL, values: [teamId, agentIds, candidates.map((c) => c.runId)] });
    const limits = found.rows[0] as Limits;
    const runStatus = new Map(limits.runs.map((r) => [r.id, r.status]));
    const agents = new Map(limits.agents.map((a) => [a.id, { limit: a.limit, running: Number(a.running) }]));
    let teamRunning = limits.teamRunning;
    const teamLimit = limits.teamLimit ?? 0;

    const admitted = new Set<string>();
    const verdicts = new Map<string, 'deferred' | 'unavailable'>();
    for (const candidate of candidates) {
      const status = runStatus.get(candidate.runId);
      if (status === 'running') {
        admitted.add(candidate.sessionId);
        continue;
      }
      if (status !== 'queued' && status !== 'waiting') {
        verdicts.set(candidate.sessionId, 'unavailable');
        continue;
      }
      const agent = candidate.agentId ? agents.get(candidate.agentId) : undefined;
      if (teamRunning >= teamLimit || (agent && agent.running >= agent.limit)) {
        verdicts.set(candidate.sessionId, 'deferred');
        continue;
      }
      teamRunning++;
      if (agent) agent.running++;
      // The run now counts as running; a second session of it needs no second slot.
      runStatus.set(candidate.runId, 'running');
      admitted.add(candidate.sessionId);
    }

    const claims = await claimSessions(client, [...admitted], owner, ttlMs);
    const started = await client.query({
      name: 'looplane_admission_start_v1',
      text: START_RUNS_SQL,
      values: [[...new Set(claims.map((c) => c.runId))]],
    });
    await client.query('COMMIT');
    client.off('error', onIdleError);
    client.release();

    const startedRuns = new Set((started.rows as { id: string }[]).map((r) => r.id));
    const claimBySession = new Map(claims.map((c) => [c.sessionId, c]));
    return candidates.map((candidate) => {
      const claim = claimBySession.get(candidate.sessionId);
      if (claim) return { kind: 'claimed', claim, runStarted: startedRuns.has(claim.runId) };
      return { kind: verdicts.get(candidate.sessionId) ?? 'unavailable' };
    });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.off('error', onIdleError);
    client.release(error as Error);
    throw error;
  }
}
