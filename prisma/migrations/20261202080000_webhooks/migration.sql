-- Signed webhooks with durable delivery. Endpoints, a transactional outbox that triggers fill in the
-- transaction of each state change (so every code path is covered: the API's Prisma writes and the
-- worker's hand-written SQL alike), deliveries (one per outbox row and endpoint) and their attempts.
-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed', 'skipped');

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT[],
    "secretCiphertext" TEXT NOT NULL,
    "secretRotatedAt" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "failingSince" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookOutbox" (
    "id" BIGSERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "endpointIds" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "outboxId" BIGINT,
    "eventType" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "scheduleStep" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "enqueuedAt" TIMESTAMP(3),
    "leaseUntil" TIMESTAMP(3),
    "lastAttemptAt" TIMESTAMP(3),
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" BIGSERIAL NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "latencyMs" INTEGER,
    "responseExcerpt" TEXT,
    "error" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_teamId_idx" ON "WebhookEndpoint"("teamId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_createdAt_id_idx" ON "WebhookDelivery"("endpointId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_enqueuedAt_idx" ON "WebhookDelivery"("status", "enqueuedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_outboxId_endpointId_key" ON "WebhookDelivery"("outboxId", "endpointId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookAttempt_deliveryId_number_key" ON "WebhookAttempt"("deliveryId", "number");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Capture. Each trigger fires only on the change it reports (its WHEN clause: a status change, one
-- event type), then asks for the team's enabled endpoints subscribed to that event type (one probe
-- of "WebhookEndpoint_teamId_idx"); with none it returns before building anything, so a team
-- without webhooks pays that probe on a handful of rows per run and nothing on every other write.

-- Timestamps are timestamp(3) columns holding UTC wall time (as Prisma writes them): ISO with a Z.
CREATE FUNCTION "looplane_webhook_iso"(ts timestamp) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

-- The team's enabled endpoints that receive `kind`, in id order; NULL when there is none.
CREATE FUNCTION "looplane_webhook_targets"(team text, kind text) RETURNS text[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM "WebhookEndpoint" WHERE "teamId" = team AND "disabledAt" IS NULL AND kind = ANY (events) $$;

-- One outbox row: the event, what happened, the endpoints to deliver it to, and when (UTC, like
-- every timestamp(3) column, whatever the session's time zone).
CREATE FUNCTION "looplane_webhook_emit"(team text, kind text, data jsonb, targets text[]) RETURNS void LANGUAGE sql AS
$$ INSERT INTO "WebhookOutbox" ("teamId", type, data, "endpointIds", "createdAt") VALUES (team, kind, data, targets, timezone('UTC', now())) $$;

-- A run's status changed to a terminal one (run.finished), or it started waiting or waits for
-- another reason now (run.waiting, with the reason from "Run"."waitReason").
CREATE FUNCTION "looplane_webhook_run"() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER "Run_webhooks" AFTER UPDATE OF status, "waitReason" ON "Run" FOR EACH ROW
  WHEN ((NEW.status IN ('succeeded', 'failed', 'cancelled') AND OLD.status IS DISTINCT FROM NEW.status)
     OR (NEW.status = 'waiting' AND (OLD.status IS DISTINCT FROM NEW.status OR OLD."waitReason" IS DISTINCT FROM NEW."waitReason")))
  EXECUTE FUNCTION "looplane_webhook_run"();

-- The call an approval holds, as the inbox shows it (arguments over 8 KiB are left out, flagged).
CREATE FUNCTION "looplane_webhook_approval_data"(a "Approval") RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'approvalId', a.id, 'runId', a."runId", 'sessionId', a."sessionId", 'kind', a.kind, 'tool', a.tool,
    'args', CASE WHEN octet_length(a.args::text) <= 8192 THEN a.args END, 'argsTruncated', octet_length(a.args::text) > 8192,
    'risk', a.risk, 'requiredRole', a."requiredRole", 'fourEyes', a."fourEyes", 'policyRuleId', a."policyRuleId",
    'graphEdgeId', a."graphEdgeId", 'createdAt', "looplane_webhook_iso"(a."createdAt"))
$$;

-- A pending approval was opened (approval.requested), with the reason from its request event.
CREATE FUNCTION "looplane_webhook_approval_requested"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "Approval_webhooks_requested" AFTER INSERT ON "Approval" FOR EACH ROW
  WHEN (NEW.status = 'pending')
  EXECUTE FUNCTION "looplane_webhook_approval_requested"();

-- A pending approval left pending (approval.decided): approved, rejected, expired or cancelled.
CREATE FUNCTION "looplane_webhook_approval_decided"() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER "Approval_webhooks_decided" AFTER UPDATE OF status ON "Approval" FOR EACH ROW
  WHEN (OLD.status = 'pending' AND NEW.status <> 'pending')
  EXECUTE FUNCTION "looplane_webhook_approval_decided"();

-- The ledger snapshot of a graph run's edge, and the edge's ends from the run's graph snapshot.
CREATE FUNCTION "looplane_webhook_edge_data"(run_id text, edge_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('edgeId', l."scopeId",
    'from', (SELECT x->>'from' FROM "Run" r, jsonb_array_elements(r.swarm->'edges') x WHERE r.id = run_id AND x->>'id' = edge_id LIMIT 1),
    'to', (SELECT x->>'to' FROM "Run" r, jsonb_array_elements(r.swarm->'edges') x WHERE r.id = run_id AND x->>'id' = edge_id LIMIT 1),
    'ledger', jsonb_build_object('limitTokens', l."limitTokens", 'limitCostMicros', l."limitCostMicros", 'limitCalls', l."limitCalls",
      'spentTokens', l."spentTokens", 'spentCostMicros', l."spentCostMicros", 'reservedTokens', l."reservedTokens",
      'reservedCostMicros', l."reservedCostMicros", 'calls', l.calls))
  FROM "BudgetLedger" l WHERE l."runId" = run_id AND l.scope = 'edge' AND l."scopeId" = edge_id
$$;

-- A reservation was refused (budget.exceeded), and graph.edge.exhausted for each graph edge whose
-- ledger refused it. Which ledgers refused is recorded in the event itself: its reason is built by
-- the path ledger (packages/db/src/swarm/path-ledger.ts, `refusal`) from the rows it locked, one
-- clause per ledger over its limit, an edge's reading "the budget of edge <id> needs <n> tokens"
-- (or "<n> µ$"). Reading the reason is faithful to the moment of refusal; the ledger's state when
-- the event commits may already differ (a sibling session settled or reserved in between).
CREATE FUNCTION "looplane_webhook_budget_exceeded"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  team text := (SELECT r."teamId" FROM "Run" r WHERE r.id = NEW."runId");
  targets text[] := "looplane_webhook_targets"(team, 'budget.exceeded');
  edge_targets text[] := "looplane_webhook_targets"(team, 'graph.edge.exhausted');
  data jsonb;
BEGIN
  IF targets IS NULL AND edge_targets IS NULL THEN RETURN NULL; END IF;
  data := jsonb_build_object(
    'runId', NEW."runId", 'sessionId', NEW."sessionId", 'seq', NEW.seq, 'eventNo', NEW."eventNo",
    'requestId', NEW.payload->'requestId', 'purpose', NEW.payload->'purpose', 'tokens', NEW.payload->'tokens',
    'costMicros', NEW.payload->'costMicros', 'reason', NEW.payload->'reason', 'onExceed', NEW.payload->'onExceed',
    'at', "looplane_webhook_iso"(NEW."createdAt"));
  IF targets IS NOT NULL THEN
    PERFORM "looplane_webhook_emit"(team, 'budget.exceeded', data, targets);
  END IF;
  IF edge_targets IS NOT NULL THEN
    PERFORM "looplane_webhook_emit"(team, 'graph.edge.exhausted', data || edge || jsonb_build_object('limits', refused.limits), edge_targets)
    FROM (
      SELECT m[1] AS edge_id, jsonb_agg(DISTINCT CASE WHEN m[2] = 'tokens' THEN 'tokens' ELSE 'costMicros' END) AS limits
      FROM regexp_matches(NEW.payload->>'reason', 'the budget of edge (\S+) needs \d+ (tokens)?', 'g') AS m GROUP BY m[1]
    ) refused
    CROSS JOIN LATERAL "looplane_webhook_edge_data"(NEW."runId", refused.edge_id) AS edge
    WHERE edge IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "Event_webhooks_budget" AFTER INSERT ON "Event" FOR EACH ROW
  WHEN (NEW.type = 'budget.exceeded')
  EXECUTE FUNCTION "looplane_webhook_budget_exceeded"();

-- A delegation refused because an edge has used its budget of calls (graph.edge.exhausted): the
-- refusal's evidence row, whose text `spawnDelegation` (packages/db/src/swarm/delegation-spawn.ts)
-- writes as "edge <id> has used its budget of <n> calls" naming the ledger that refused. A
-- delegation over an edge's fan-out (maxConcurrent) is not refused: it waits for a free slot.
CREATE FUNCTION "looplane_webhook_edge_calls"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  team text := (SELECT r."teamId" FROM "Run" r WHERE r.id = NEW."runId");
  targets text[] := "looplane_webhook_targets"(team, 'graph.edge.exhausted');
  edge_id text;
  edge jsonb;
BEGIN
  IF targets IS NULL THEN RETURN NULL; END IF;
  edge_id := (regexp_match(NEW.text, '^edge (\S+) has used its budget of \d+ calls$'))[1];
  edge := "looplane_webhook_edge_data"(NEW."runId", edge_id);
  IF edge IS NULL THEN RETURN NULL; END IF;
  PERFORM "looplane_webhook_emit"(team, 'graph.edge.exhausted',
    jsonb_build_object('runId', NEW."runId", 'sessionId', NEW."parentSessionId", 'callId', NEW."callId", 'reason', NEW.text,
      'limits', jsonb_build_array('calls'), 'at', "looplane_webhook_iso"(NEW."createdAt")) || edge,
    targets);
  RETURN NULL;
END $$;

CREATE TRIGGER "SwarmCrossing_webhooks_calls" AFTER INSERT ON "SwarmCrossing" FOR EACH ROW
  WHEN (NOT NEW.ok AND NEW.direction = 'out' AND NEW.text LIKE 'edge % has used its budget of % calls')
  EXECUTE FUNCTION "looplane_webhook_edge_calls"();
