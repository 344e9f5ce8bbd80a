-- What the database holds, statement for statement: packages/db/src/sql/function-bodies.int.test.ts
-- fails when a migrated database differs from these files. Migrations build the database, so a
-- change here ships with a new migration in prisma/migrations that applies this file's text again
-- (each statement is CREATE OR REPLACE) and drops whatever the file no longer defines.

-- The call an approval holds, as the inbox shows it (arguments over 8 KiB are left out, flagged).
CREATE OR REPLACE FUNCTION "looplane_webhook_approval_data"(a "Approval") RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'approvalId', a.id, 'runId', a."runId", 'sessionId', a."sessionId", 'kind', a.kind, 'tool', a.tool,
    'args', CASE WHEN octet_length(a.args::text) <= 8192 THEN a.args END, 'argsTruncated', octet_length(a.args::text) > 8192,
    'risk', a.risk, 'requiredRole', a."requiredRole", 'fourEyes', a."fourEyes", 'policyRuleId', a."policyRuleId",
    'graphEdgeId', a."graphEdgeId", 'createdAt', "looplane_webhook_iso"(a."createdAt"))
$$;

-- A pending approval was opened (approval.requested), with the reason from its request event.
CREATE OR REPLACE FUNCTION "looplane_webhook_approval_requested"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  targets text[] := "looplane_webhook_targets"(NEW."teamId", 'approval.requested');
BEGIN
  IF targets IS NULL THEN RETURN NULL; END IF;
  PERFORM "looplane_webhook_emit"(NEW."teamId", 'approval.requested',
    "looplane_webhook_approval_data"(NEW) || jsonb_build_object(
      'reason', (SELECT e.payload->>'reason' FROM "Event" e WHERE e."sessionId" = NEW."sessionId" AND e.seq = NEW."requestSeq"),
      'expiresAt', "looplane_webhook_iso"(NEW."expiresAt")),
    targets);
  RETURN NULL;
END $$;

-- The worker's insert is idempotent (ON CONFLICT DO NOTHING): only a row actually inserted fires.
CREATE OR REPLACE TRIGGER "Approval_webhooks_requested" AFTER INSERT ON "Approval" FOR EACH ROW
  WHEN (NEW.status = 'pending')
  EXECUTE FUNCTION "looplane_webhook_approval_requested"();

-- A pending approval left pending (approval.decided): approved, rejected, expired or cancelled.
CREATE OR REPLACE FUNCTION "looplane_webhook_approval_decided"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  targets text[] := "looplane_webhook_targets"(NEW."teamId", 'approval.decided');
BEGIN
  IF targets IS NULL THEN RETURN NULL; END IF;
  PERFORM "looplane_webhook_emit"(NEW."teamId", 'approval.decided',
    "looplane_webhook_approval_data"(NEW) || jsonb_build_object(
      'status', NEW.status, 'decidedById', NEW."decidedById",
      'decidedByEmail', (SELECT u.email FROM "User" u WHERE u.id = NEW."decidedById"),
      'decidedAt', "looplane_webhook_iso"(NEW."decidedAt"), 'comment', left(NEW.comment, 2000), 'edited', NEW."editedArgs" IS NOT NULL),
    targets);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER "Approval_webhooks_decided" AFTER UPDATE OF status ON "Approval" FOR EACH ROW
  WHEN (OLD.status = 'pending' AND NEW.status <> 'pending')
  EXECUTE FUNCTION "looplane_webhook_approval_decided"();
