import { claimSessions, type ClaimedSession } from './lease.repository';
import type { PgPool } from './pg-pool';

/** A session whose run needs a concurrency slot before it may run (its run was queued or waiting when read). */
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
   FROM "AgentTemplate" a WHERE a.id = ANY($2::text[]) AND a."maxConcurrentRuns" IS NOT NULL) AS agents`;

const START_RUNS_SQL = `
UPDATE "Run" SET status = 'running', "waitReason" = NULL, "updatedAt" = statement_timestamp()
WHERE id = ANY($1::text[]) AND status IN ('queued', 'waiting')
RETURNING id`;

interface Limits {
  teamLimit: number | null;
  teamRunning: number;
  agents: { id: string; limit: number; running: number }[];
}

/**
 * Admits a batch of one team's sessions under the team's and the agents' limits on running runs,
 * then claims the admitted ones. Admission is one short transaction serialised per team by an
 * advisory lock (so workers on many machines never admit past a limit together): it marks the
 * admitted runs running, which takes their slots. The claims follow outside the lock. A run
 * admitted whose claim then fails is being driven by whoever holds it, or (after a crash right
 * here) is found again by the reconciler as a running run with an idle session. Candidates are
 * admitted in the order given.
 */
export async function admitAndClaim(
  pool: PgPool,
  teamId: string,
  candidates: readonly AdmissionCandidate[],
  owner: string,
  ttlMs: number,
): Promise<AdmissionVerdict[]> {
  const { admitted, verdicts, startedRuns } = await admit(pool, teamId, candidates);
  const claims = await claimSessions(pool, [...admitted], owner, ttlMs);
  const claimBySession = new Map(claims.map((c) => [c.sessionId, c]));
  return candidates.map((candidate) => {
    const claim = claimBySession.get(candidate.sessionId);
    if (claim) return { kind: 'claimed', claim, runStarted: startedRuns.has(claim.runId) };
    return { kind: verdicts.get(candidate.sessionId) ?? 'unavailable' };
  });
}

/** The admission transaction: which sessions may run, and which runs it marked running. */
async function admit(pool: PgPool, teamId: string, candidates: readonly AdmissionCandidate[]) {
  const client = await pool.connect();
  const onIdleError = () => undefined;
  client.on('error', onIdleError);
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query({ name: 'looplane_admission_lock_v1', text: `SELECT pg_advisory_xact_lock(hashtextextended('looplane:admission:' || $1::text, 0))`, values: [teamId] });
    const agentIds = [...new Set(candidates.flatMap((c) => (c.agentId ? [c.agentId] : [])))];
    const found = await client.query({ name: 'looplane_admission_limits_v2', text: LIMITS_SQL, values: [teamId, agentIds] });
    const limits = found.rows[0] as Limits;
    const agents = new Map(limits.agents.map((a) => [a.id, { limit: a.limit, running: Number(a.running) }]));
    let teamRunning = limits.teamRunning;
    const teamLimit = limits.teamLimit ?? 0;

    // Candidates in order while slots last. A run counted here that is no longer queued or waiting
    // (another worker started it, it was cancelled) is left alone by the UPDATE below: the count
    // is then conservative for this batch, never over the limit.
    const admitted = new Set<string>();
    const admittedRuns = new Set<string>();
    const verdicts = new Map<string, 'deferred' | 'unavailable'>();
    for (const candidate of candidates) {
      if (admittedRuns.has(candidate.runId)) {
        admitted.add(candidate.sessionId);
        continue;
      }
      const agent = candidate.agentId ? agents.get(candidate.agentId) : undefined;
      if (teamRunning >= teamLimit || (agent && agent.running >= agent.limit)) {
        verdicts.set(candidate.sessionId, 'deferred');
        continue;
      }
      teamRunning++;
      if (agent) agent.running++;
      admitted.add(candidate.sessionId);
      admittedRuns.add(candidate.runId);
    }
    const started = await client.query({ name: 'looplane_admission_start_v1', text: START_RUNS_SQL, values: [[...admittedRuns]] });
    await client.query('COMMIT');
    return { admitted, verdicts, startedRuns: new Set((started.rows as { id: string }[]).map((r) => r.id)) };
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onIdleError);
    client.release(failure);
  }
}
