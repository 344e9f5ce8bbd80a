-- What the database holds, statement for statement: packages/db/src/sql/function-bodies.int.test.ts
-- fails when a migrated database differs from these files. Migrations build the database, so a
-- change here ships with a new migration in prisma/migrations that applies this file's text again
-- (each statement is CREATE OR REPLACE) and drops whatever the file no longer defines.
--
-- The helpers every webhook capture trigger (webhook-*.triggers.sql) calls; the outbox rows they
-- write are read by outbox.repository.ts.
--
-- Capture. Each trigger fires only on the change it reports (its WHEN clause: a status change, one
-- event type), then asks for the team's enabled endpoints subscribed to that event type (one probe
-- of "WebhookEndpoint_teamId_idx"); with none it returns before building anything, so a team
-- without webhooks pays that probe on a handful of rows per run and nothing on every other write.

-- Timestamps are timestamp(3) columns holding UTC wall time (as Prisma writes them): ISO with a Z.
CREATE OR REPLACE FUNCTION "looplane_webhook_iso"(ts timestamp) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

-- The team's enabled endpoints that receive `kind`, in id order; NULL when there is none.
CREATE OR REPLACE FUNCTION "looplane_webhook_targets"(team text, kind text) RETURNS text[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM "WebhookEndpoint" WHERE "teamId" = team AND "disabledAt" IS NULL AND kind = ANY (events) $$;

-- One outbox row: the event, what happened, the endpoints to deliver it to, and when (UTC, like
-- every timestamp(3) column, whatever the session's time zone).
CREATE OR REPLACE FUNCTION "looplane_webhook_emit"(team text, kind text, data jsonb, targets text[]) RETURNS void LANGUAGE sql AS
$$ INSERT INTO "WebhookOutbox" ("teamId", type, data, "endpointIds", "createdAt") VALUES (team, kind, data, targets, timezone('UTC', now())) $$;
