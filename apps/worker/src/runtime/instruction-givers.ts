import type { Queryable } from '@looplane/db';

/** Who gave the instructions a session's call at `requestSeq` follows from. */
export interface InstructionGivers {
  /** The latest of them: whose instruction the call most directly follows (null: nobody known). */
  requestedById: string | null;
  /** All of them, the latest first, each once. */
  instructedByIds: string[];
}

// The session's lineage, newest link first, each with the last seq of its own log that the session
// sees (`upTo`; null: all of it). A fork sees its parent up to its fork point; a delegated child
// (no fork point) follows its parent's instructions, so it sees all of the parent's messages.
// From each link: the messages its log consumed in that range (a run message, a fork's or a
// resume's instruction: `InboxMessage.createdById`) and the author of the fork that made it. Order:
// newest link first, then latest seq first; a fork's author sits at its fork point, before the
// branch's own messages.
const GIVERS_SQL = `
WITH RECURSIVE chain AS (
  SELECT s.id, s."parentId", s."forkSeq", s."createdById", $2::int AS "upTo", 0 AS depth FROM "Session" s WHERE s.id = $1
  UNION ALL
  SELECT p.id, p."parentId", p."forkSeq", p."createdById",
    CASE WHEN c."forkSeq" IS NULL THEN NULL ELSE LEAST(c."forkSeq", c."upTo") END, c.depth + 1
  FROM "Session" p JOIN chain c ON p.id = c."parentId"
  WHERE c.depth < 1000
)
SELECT g."userId" FROM (
  SELECT m."createdById" AS "userId", c.depth, m."consumedSeq" AS seq
  FROM chain c JOIN "InboxMessage" m ON m."sessionId" = c.id
  WHERE m."createdById" IS NOT NULL AND m."consumedSeq" IS NOT NULL AND (c."upTo" IS NULL OR m."consumedSeq" <= c."upTo")
  UNION ALL
  SELECT c."createdById", c.depth, c."forkSeq" FROM chain c WHERE c."createdById" IS NOT NULL AND c."forkSeq" IS NOT NULL
) g
ORDER BY g.depth ASC, g.seq DESC`;

/**
 * The people whose instructions an approval's call follows from: whoever sent a message the
 * session's log holds before the call (a run message, a fork's or a resume's instruction), whoever
 * forked a branch of its lineage, and the run's creator (the goal). Four-eyes keeps every one of
 * them from deciding the approval: an approver who forks an operator's run with her own
 * instruction did ask for what follows. All of the lineage counts, not only what came since the
 * last approval: an instruction stays in the model's context, and a harmless approval in between
 * must not launder it.
 */
export async function instructionGivers(db: Queryable, sessionId: string, requestSeq: number, runCreatorId: string | null): Promise<InstructionGivers> {
  const found = await db.query({ name: 'looplane_instruction_givers_v1', text: GIVERS_SQL, values: [sessionId, requestSeq] });
  const ordered = (found.rows as Array<{ userId: string }>).map((row) => row.userId);
  if (runCreatorId) ordered.push(runCreatorId);
  const instructedByIds = [...new Set(ordered)];
  return { requestedById: instructedByIds[0] ?? null, instructedByIds };
}
