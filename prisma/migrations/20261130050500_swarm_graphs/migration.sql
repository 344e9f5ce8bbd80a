-- Swarm graph runs: a run's graph snapshot, delegated sessions' own goals, and crossing evidence.
ALTER TABLE "Run" ADD COLUMN "swarm" JSONB;

ALTER TABLE "Session" ADD COLUMN "goal" TEXT;
ALTER TABLE "Session" ADD COLUMN "callId" TEXT;
CREATE UNIQUE INDEX "Session_parentId_callId_key" ON "Session"("parentId", "callId");

CREATE TABLE "SwarmCrossing" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "edgeId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "parentSessionId" TEXT NOT NULL,
    "childSessionId" TEXT,
    "callId" TEXT NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "text" TEXT NOT NULL,
    "bytesIn" INTEGER NOT NULL DEFAULT 0,
    "bytesOut" INTEGER NOT NULL DEFAULT 0,
    "redactions" INTEGER NOT NULL DEFAULT 0,
    "costMicros" BIGINT NOT NULL DEFAULT 0,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SwarmCrossing_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "SwarmCrossing_parentSessionId_callId_direction_key" ON "SwarmCrossing"("parentSessionId", "callId", "direction");
CREATE INDEX "SwarmCrossing_runId_createdAt_idx" ON "SwarmCrossing"("runId", "createdAt");

ALTER TABLE "SwarmCrossing" ADD CONSTRAINT "SwarmCrossing_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
