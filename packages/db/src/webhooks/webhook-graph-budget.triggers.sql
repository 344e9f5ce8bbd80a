-- What the database holds, statement for statement: packages/db/src/sql/function-bodies.int.test.ts
-- fails when a migrated database differs from these files. Migrations build the database, so a
-- change here ships with a new migration in prisma/migrations that applies this file's text again
-- (each statement is CREATE OR REPLACE) and drops whatever the file no longer defines.

-- The ledger snapshot of a graph run's edge, and the edge's ends from the run's graph snapshot.
CREATE OR REPLACE FUNCTION "looplane_webhook_edge_data"(run_id text, edge_id text) RETURNS jsonb LANGUAGE sql STABLE AS $$
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
CREATE OR REPLACE FUNCTION "looplane_webhook_budget_exceeded"() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE TRIGGER "Event_webhooks_budget" AFTER INSERT ON "Event" FOR EACH ROW
  WHEN (NEW.type = 'budget.exceeded')
  EXECUTE FUNCTION "looplane_webhook_budget_exceeded"();

-- A delegation refused because an edge has used its budget of calls (graph.edge.exhausted): the
-- refusal's evidence row, whose text `spawnDelegation` (packages/db/src/swarm/delegation-spawn.ts)
-- writes as "edge <id> has used its budget of <n> calls" naming the ledger that refused. A
-- delegation over an edge's fan-out (maxConcurrent) is not refused: it waits for a free slot.
CREATE OR REPLACE FUNCTION "looplane_webhook_edge_calls"() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE OR REPLACE TRIGGER "SwarmCrossing_webhooks_calls" AFTER INSERT ON "SwarmCrossing" FOR EACH ROW
  WHEN (NOT NEW.ok AND NEW.direction = 'out' AND NEW.text LIKE 'edge % has used its budget of % calls')
  EXECUTE FUNCTION "looplane_webhook_edge_calls"();
