-- What the database holds, statement for statement: packages/db/src/sql/function-bodies.int.test.ts
-- fails when a migrated database differs from these files. Migrations build the database, so a
-- change here ships with a new migration in prisma/migrations that applies this file's text again
-- (each statement is CREATE OR REPLACE) and drops whatever the file no longer defines.

-- A run's status changed to a terminal one (run.finished), or it started waiting or waits for
-- another reason now (run.waiting, with the reason from "Run"."waitReason").
CREATE OR REPLACE FUNCTION "looplane_webhook_run"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := CASE WHEN NEW.status = 'waiting' THEN 'run.waiting' ELSE 'run.finished' END;
  targets text[] := "looplane_webhook_targets"(NEW."teamId", kind);
  data jsonb;
BEGIN
  IF targets IS NULL THEN RETURN NULL; END IF;
  data := jsonb_build_object(
    'runId', NEW.id, 'status', NEW.status, 'previousStatus', OLD.status, 'goal', left(NEW.goal, 1000),
    'agentId', NEW."agentId", 'graphId', NEW."graphId", 'createdById', NEW."createdById",
    'spentTokens', NEW."spentTokens", 'spentCostMicros', NEW."spentCostMicros", 'toolCalls', NEW."toolCalls",
    'createdAt', "looplane_webhook_iso"(NEW."createdAt"), 'startedAt', "looplane_webhook_iso"(NEW."startedAt"));
  IF kind = 'run.finished' THEN
    data := data || jsonb_build_object('result', left(NEW.result, 4000), 'error', left(NEW.error, 4000),
      'finishedAt', "looplane_webhook_iso"(NEW."finishedAt"));
  ELSE
    data := data || jsonb_build_object('waitReason', NEW."waitReason",
      'pendingApprovalIds', CASE WHEN NEW."waitReason" = 'approval' THEN (
        SELECT COALESCE(jsonb_agg(a.id ORDER BY a."createdAt", a.id), '[]') FROM "Approval" a WHERE a."runId" = NEW.id AND a.status = 'pending') END);
  END IF;
  PERFORM "looplane_webhook_emit"(NEW."teamId", kind, data, targets);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER "Run_webhooks" AFTER UPDATE OF status, "waitReason" ON "Run" FOR EACH ROW
  WHEN ((NEW.status IN ('succeeded', 'failed', 'cancelled') AND OLD.status IS DISTINCT FROM NEW.status)
     OR (NEW.status = 'waiting' AND (OLD.status IS DISTINCT FROM NEW.status OR OLD."waitReason" IS DISTINCT FROM NEW."waitReason")))
  EXECUTE FUNCTION "looplane_webhook_run"();
