import { claimableSql, claimUpdateSql, type ClaimedSession } from './lease.repository';
import { withClient, type PgPool } from './pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

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

/**
 * Which candidates get a slot, in one statement (its snapshot is taken after the team's lock, so
 * it sees every admission committed before). The greedy rule, in candidate order: a run takes a
 * slot when its team and its agent (if the agent has a limit) have one left; further sessions of
 * an admitted run ride on its slot. Equivalently: a run is eligible when it is within the first
 * `free` runs of its agent, and admitted when it is within the first `free` eligible runs of the
 * team. The admitted runs are marked running (that takes their slots), and their sessions claimed
 * under the lease rules of `claimSessions`. A run counted here that is no longer queued or
 * waiting (another worker started it, it was cancelled) is left alone: the count is then
 * conservative for this batch, never over the limit. `:candidates` is JSON
 * `[{ position, session_id, run_id }]`.
 */
const ADMIT_SQL = namedQuery({
  name: 'looplane_admit',
  params: { team_id: param.text, candidates: param.jsonb, owner: param.text, lease_ms: param.int },
  text: `
WITH candidate AS (
  SELECT * FROM jsonb_to_recordset(:candidates) AS x(position int, session_id text, run_id text)
), team AS (
  SELECT COALESCE((SELECT "maxConcurrentRuns" FROM "Team" WHERE id = :team_id), 0)
    - (SELECT count(*)::int FROM "Run" WHERE "teamId" = :team_id AND status = 'running') AS free
), run_first AS (
  -- A run is admitted once, in the place of its first candidate, under its own agent's limit
  -- (running runs are counted by the run's agent too).
  SELECT DISTINCT ON (c.run_id) c.run_id, c.position, r."agentId" AS agent_id
  FROM candidate c JOIN "Run" r ON r.id = c.run_id ORDER BY c.run_id, c.position
), agent AS (
  SELECT a.id, a."maxConcurrentRuns"
    - (SELECT count(*)::int FROM "Run" r WHERE r."teamId" = :team_id AND r."agentId" = a.id AND r.status = 'running') AS free
  FROM "AgentTemplate" a WHERE a.id IN (SELECT agent_id FROM run_first) AND a."maxConcurrentRuns" IS NOT NULL
), eligible AS (
  SELECT f.run_id, f.position FROM (
    SELECT f.run_id, f.position, a.free, row_number() OVER (PARTITION BY f.agent_id ORDER BY f.position) AS agent_rank
    FROM run_first f LEFT JOIN agent a ON a.id = f.agent_id
  ) f WHERE f.free IS NULL OR f.agent_rank <= f.free
), admitted AS (
  SELECT e.run_id FROM (SELECT run_id, row_number() OVER (ORDER BY position) AS team_rank FROM eligible) e, team
  WHERE e.team_rank <= team.free
), prev AS (
  -- Session rows first, then Run rows in id order: the order every writer takes them in (see
  -- append-sql.ts), so an admission and a flush can never wait on each other in a cycle.
  SELECT p.id, p.status, p."waitReason" FROM "Session" p
  WHERE p.id IN (SELECT c.session_id FROM candidate c JOIN admitted a ON a.run_id = c.run_id) AND ${claimableSql('p', ':owner')}
  FOR UPDATE
), run_lock AS (
  SELECT r.id FROM "Run" r
  WHERE r.id IN (SELECT run_id FROM admitted) AND r.status IN ('queued', 'waiting')
    -- Evaluated before the first row: the session locks are taken before any Run lock.
    AND (SELECT count(*) FROM prev) >= 0
  ORDER BY r.id FOR UPDATE
), started AS (
  UPDATE "Run" SET status = 'running', "waitReason" = NULL, "updatedAt" = statement_timestamp()
  WHERE id IN (SELECT id FROM run_lock) AND status IN ('queued', 'waiting')
  RETURNING id
), claimed AS (
  ${claimUpdateSql(':owner', ':lease_ms')}
)
SELECT a.run_id IS NOT NULL AS admitted, st.id IS NOT NULL AS "runStarted",
  NOT EXISTS (SELECT 1 FROM run_first f WHERE f.run_id = c.run_id) AS gone,
  cl."sessionId", cl."runId", cl.version, cl."previousStatus", cl."previousWaitReason", cl."lastSeq", cl."parentId"
FROM candidate c
LEFT JOIN admitted a ON a.run_id = c.run_id
LEFT JOIN started st ON st.id = c.run_id
LEFT JOIN claimed cl ON cl."sessionId" = c.session_id
ORDER BY c.position`,
}).returns<AdmitRow>();

/** The team's admission lock: admissions of one team are serialised, on every worker. */
const ADMISSION_LOCK_SQL = namedQuery({
  name: 'looplane_admission_lock',
  params: { lock_key: param.text },
  text: `SELECT pg_advisory_xact_lock(hashtextextended(:lock_key, 0))`,
});

interface AdmitRow extends Partial<ClaimedSession> {
  admitted: boolean;
  runStarted: boolean;
  /** The run no longer exists. */
  gone: boolean;
}

/**
 * Admits a batch of one team's sessions under the team's and the agents' limits on running runs,
 * and claims the admitted ones: one transaction serialised per team by an advisory lock (so
 * workers on many machines never admit past a limit together). It is sent as one message — lock,
 * admission and claims, then commit — so it costs one round trip: a worker starting thousands of
 * loops at once has a busy event loop, and every extra round trip of a transaction that holds the
 * team's lock would wait on it. A run admitted whose claim fails is being driven by whoever holds
 * it, or (after a crash) is found again by the reconciler as a running run with an idle session.
 * Candidates are admitted in the order given.
 */
export async function admitAndClaim(
  pool: PgPool,
  teamId: string,
  candidates: readonly AdmissionCandidate[],
  owner: string,
  ttlMs: number,
): Promise<AdmissionVerdict[]> {
  if (candidates.length === 0) return [];
  return withClient(pool, async (client) => {
    const json = JSON.stringify(candidates.map((c, position) => ({ position, session_id: c.sessionId, run_id: c.runId })));
    // A simple query of several statements (the extended protocol carries one statement and so
    // would cost a round trip each): each statement takes its snapshot when it starts, so the
    // admission reads what the previous lock holder committed.
    const lock = ADMISSION_LOCK_SQL.inline({ lock_key: `looplane:admission:${teamId}` });
    const admit = ADMIT_SQL.inline({ team_id: teamId, candidates: json, owner, lease_ms: Math.trunc(ttlMs) });
    const results = (await client.query([`BEGIN`, lock, admit, 'COMMIT'].join(';\n'))) as unknown as Array<{ rows: unknown[] }>;
    return rowsOf(ADMIT_SQL, results[2]!).map(toVerdict);
  });
}

function toVerdict(row: AdmitRow): AdmissionVerdict {
  if (row.gone) return { kind: 'unavailable' };
  if (!row.admitted) return { kind: 'deferred' };
  if (!row.sessionId) return { kind: 'unavailable' };
  const claim: ClaimedSession = {
    sessionId: row.sessionId,
    runId: row.runId!,
    version: Number(row.version),
    previousStatus: row.previousStatus!,
    previousWaitReason: row.previousWaitReason ?? null,
    lastSeq: Number(row.lastSeq),
    parentId: row.parentId ?? null,
  };
  return { kind: 'claimed', claim, runStarted: row.runStarted };
}
