-- What the database holds, statement for statement: packages/db/src/sql/function-bodies.int.test.ts
-- fails when a migrated database differs from this file. A change here ships with a new migration
-- in prisma/migrations that applies this file's text again.
--
-- Audit rows carried by a session's flush (runs/append-sql.ts): the worker chains a policy
-- decision's row onto the team's tail it last saw and sends it with the events it belongs to, so
-- `policy.decided`, its audit row and `tool.started` commit in one statement. Called last in that
-- statement, after the Session, Run, ledger and inbox rows are locked: every writer of a chain takes
-- the team's lock after its row locks, so the flush and an API transaction never wait on each other
-- in a circle.
--
-- `rows`: the chained rows, as append-batch.ts builds them; NULL writes nothing. `expected`:
-- `[{ teamId, seq, hash }]`, the tail each team's first row was chained onto. `after_writes`: what
-- the flush wrote before; an argument only so that Postgres runs those writes (and takes their row
-- locks) before this call. Takes each team's chain lock (sorted, like every chain writer), then
-- reads the tail in a statement of its own: a VOLATILE function's statements each take a fresh
-- snapshot, so the tail read sees the commit of the lock's previous holder, which the flush's own
-- snapshot (taken before the lock) would not. If every tail is the expected one the rows are
-- inserted in order and their count returned; otherwise nothing is written and 0 returned, and the
-- worker appends the rows through the locked path instead. Either way the chain never forks.
CREATE OR REPLACE FUNCTION "looplane_audit_append_chained"(rows jsonb, expected jsonb, after_writes bigint) RETURNS int LANGUAGE plpgsql VOLATILE AS
$$
DECLARE
  t record;
  tail_seq int;
  tail_hash text;
  written int;
BEGIN
  IF rows IS NULL OR expected IS NULL THEN
    RETURN 0;
  END IF;
  FOR t IN SELECT e."teamId", e.seq, e.hash FROM jsonb_to_recordset(expected) AS e("teamId" text, seq int, hash text) ORDER BY e."teamId" LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('audit:' || t."teamId", 0));
    tail_seq := NULL;
    tail_hash := NULL;
    SELECT a.seq, a.hash INTO tail_seq, tail_hash FROM "AuditLog" a WHERE a."teamId" = t."teamId" ORDER BY a.seq DESC LIMIT 1;
    IF COALESCE(tail_seq, 0) <> t.seq OR COALESCE(tail_hash, repeat('0', 64)) <> t.hash THEN
      RETURN 0;
    END IF;
  END LOOP;
  INSERT INTO "AuditLog" ("teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash)
    SELECT r."teamId", r.seq, r."actorType"::"ActorType", r."actorId", r.action, r."targetType", r."targetId", r.data, r.ip,
           (r."createdAt" AT TIME ZONE 'UTC')::timestamp(3), r."prevHash", r.hash
    FROM ROWS FROM (jsonb_to_recordset(rows) AS (
      "teamId" text, seq int, "actorType" text, "actorId" text, action text, "targetType" text, "targetId" text,
      data jsonb, ip text, "createdAt" timestamptz, "prevHash" text, hash text)) WITH ORDINALITY AS r(
      "teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, ip, "createdAt", "prevHash", hash, ord)
    ORDER BY r.ord;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END
$$;
