import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/** Who gave the instructions a session's call at `requestSeq` follows from. */
export interface InstructionGivers {
  /** The latest of them: whose instruction the call most directly follows (null: nobody known). */
  requestedById: string | null;
  /** All of them, the latest first, each once. */
  instructedByIds: string[];
}

/**
 * The fields of an agent template that instruct the agent (what `agents.update` lists in its audit
 * row's `changed`): its prompt, its tools, its slash commands (goal text), its model and its
 * sandbox. A rename or a new description instructs nobody.
 */
const INSTRUCTING_FIELDS = ['systemPrompt', 'tools', 'slashCommands', 'endpointId', 'sandbox'] as const;

// The session's lineage, newest link first, each with the last seq of its own log that the session
// sees (`upTo`; null: all of it). A fork sees its parent up to its fork point; a delegated child
// (no fork point) follows its parent's instructions, so it sees all of the parent's messages.
//
// From each link (bucket 0, newest link first, then latest seq first; a fork's author sits at its
// fork point, before the branch's own messages):
// - the messages its log consumed in that range (a run message, a fork's or a resume's
//   instruction: `InboxMessage.createdById`) and the author of the fork that made it;
// - whoever approved a call of it with edited arguments: the edit is in the log (`approval.decided`
//   with `editedArgs`, and the model is told of it), so it is an instruction like a message.
//
// Then (bucket 1, latest change first) the authors of the templates the lineage runs with:
// - for each agent template of a link (a graph node's included), the author of each instructing
//   field in the version the run was built from (the last version up to it that changed the
//   field), and whoever changed an instructing field after it, during the run. The version comes
//   from the `run.created` audit row (`agentVersion`, or a graph run's `agentVersions`); a run
//   without it counts the last version the chain recorded before the run was created. Authors are
//   read from the team's audit chain (`agent.created`, `agent.updated` with `changed`), a token
//   standing for the person who made it;
// - for a graph run (bucket 2, latest version first), the author of the graph version it runs and
//   of every later version.
const GIVERS_SQL = namedQuery({
  name: 'looplane_instruction_givers_v2',
  params: { session_id: param.text, request_seq: param.int, fields: param.jsonb },
  text: `
WITH RECURSIVE chain AS (
  SELECT s.id, s."runId", s."parentId", s."forkSeq", s."createdById", s."agentId", :request_seq AS "upTo", 0 AS depth
  FROM "Session" s WHERE s.id = :session_id
  UNION ALL
  SELECT p.id, p."runId", p."parentId", p."forkSeq", p."createdById", p."agentId",
    CASE WHEN c."forkSeq" IS NULL THEN NULL ELSE LEAST(c."forkSeq", c."upTo") END, c.depth + 1
  FROM "Session" p JOIN chain c ON p.id = c."parentId"
  WHERE c.depth < 1000
),
run AS (
  SELECT r.id, r."teamId", r."graphId", r."graphVersion", r."createdAt" FROM "Run" r WHERE r.id = (SELECT "runId" FROM chain WHERE depth = 0)
),
started AS (
  SELECT l.seq, l.data FROM "AuditLog" l JOIN run ON l."teamId" = run."teamId"
  WHERE l.action = 'run.created' AND l."targetType" = 'run' AND l."targetId" = run.id
  ORDER BY l.seq LIMIT 1
),
versions AS (
  SELECT l."targetId" AS "agentId", l.seq, l."createdAt", l."actorType", l."actorId",
    CASE WHEN l.action = 'agent.created' THEN 1 WHEN jsonb_typeof(l.data->'version') = 'number' THEN (l.data->>'version')::int END AS version,
    CASE WHEN l.action = 'agent.created' THEN :fields WHEN jsonb_typeof(l.data->'changed') = 'array' THEN l.data->'changed' ELSE '[]'::jsonb END AS changed
  FROM "AuditLog" l JOIN run ON l."teamId" = run."teamId"
  WHERE l.action IN ('agent.created', 'agent.updated') AND l."targetType" = 'agent'
    AND l."targetId" IN (SELECT "agentId" FROM chain WHERE "agentId" IS NOT NULL)
),
start AS (
  SELECT a."agentId", COALESCE(
    CASE WHEN jsonb_typeof(st.data->'agentVersions'->a."agentId") = 'number' THEN (st.data->'agentVersions'->>a."agentId")::int END,
    CASE WHEN st.data->>'agentId' = a."agentId" AND jsonb_typeof(st.data->'agentVersion') = 'number' THEN (st.data->>'agentVersion')::int END,
    (SELECT max(v.version) FROM versions v WHERE v."agentId" = a."agentId"
      AND CASE WHEN st.seq IS NULL THEN v."createdAt" <= run."createdAt" ELSE v.seq < st.seq END),
    1) AS version
  FROM (SELECT DISTINCT "agentId" FROM versions) a CROSS JOIN run LEFT JOIN started st ON true
),
field AS (SELECT jsonb_array_elements_text(:fields) AS name),
in_use AS (
  SELECT DISTINCT ON (v."agentId", f.name) v."actorType", v."actorId", v.seq
  FROM versions v JOIN start ON start."agentId" = v."agentId" JOIN field f ON v.changed ? f.name
  WHERE v.version <= start.version
  ORDER BY v."agentId", f.name, v.version DESC
),
since AS (
  SELECT v."actorType", v."actorId", v.seq FROM versions v JOIN start ON start."agentId" = v."agentId"
  WHERE v.version > start.version AND v.changed ?| ARRAY(SELECT name FROM field)
),
authors AS (
  SELECT COALESCE(t."createdById", CASE WHEN x."actorType" = 'user' THEN x."actorId" END) AS "userId", x.seq
  FROM (SELECT * FROM in_use UNION ALL SELECT * FROM since) x
  LEFT JOIN "ApiToken" t ON x."actorType" = 'token' AND t.id = x."actorId"
)
SELECT g."userId" FROM (
  SELECT m."createdById" AS "userId", 0 AS bucket, c.depth, m."consumedSeq" AS seq
  FROM chain c JOIN "InboxMessage" m ON m."sessionId" = c.id
  WHERE m."createdById" IS NOT NULL AND m."consumedSeq" IS NOT NULL AND (c."upTo" IS NULL OR m."consumedSeq" <= c."upTo")
  UNION ALL
  SELECT c."createdById", 0, c.depth, c."forkSeq" FROM chain c WHERE c."createdById" IS NOT NULL AND c."forkSeq" IS NOT NULL
  UNION ALL
  SELECT a."decidedById", 0, c.depth, a."requestSeq"
  FROM chain c JOIN "Approval" a ON a."sessionId" = c.id
  WHERE a.status = 'approved' AND a."editedArgs" IS NOT NULL AND a."decidedById" IS NOT NULL AND (c."upTo" IS NULL OR a."requestSeq" <= c."upTo")
  UNION ALL
  SELECT au."userId", 1, 0, au.seq FROM authors au WHERE au."userId" IS NOT NULL
  UNION ALL
  SELECT gv."createdById", 2, 0, gv.version FROM "GraphVersion" gv JOIN run ON gv."graphId" = run."graphId"
  WHERE run."graphVersion" IS NOT NULL AND gv.version >= run."graphVersion" AND gv."createdById" IS NOT NULL
) g
ORDER BY g.bucket ASC, g.depth ASC, g.seq DESC`,
}).returns<{ userId: string }>();

/**
 * The people whose instructions an approval's call follows from: whoever sent a message the
 * session's log holds before the call (a run message, a fork's or a resume's instruction), whoever
 * forked a branch of its lineage, whoever approved one of its calls with edited arguments, the
 * authors of the agent template (and graph) it runs with and whoever changed them during the run,
 * and the run's creator (the goal). Four-eyes keeps every one of them from deciding the approval:
 * an approver who forks an operator's run with her own instruction did ask for what follows, and
 * so did the admin who wrote the prompt the agent follows. All of the lineage counts, not only
 * what came since the last approval: an instruction stays in the model's context, and a harmless
 * approval in between must not launder it.
 */
export async function instructionGivers(db: Queryable, sessionId: string, requestSeq: number, runCreatorId: string | null): Promise<InstructionGivers> {
  const found = await db.query(GIVERS_SQL.bind({ session_id: sessionId, request_seq: requestSeq, fields: JSON.stringify(INSTRUCTING_FIELDS) }));
  const ordered = rowsOf(GIVERS_SQL, found).map((row) => row.userId);
  if (runCreatorId) ordered.push(runCreatorId);
  const instructedByIds = [...new Set(ordered)];
  return { requestedById: instructedByIds[0] ?? null, instructedByIds };
}
