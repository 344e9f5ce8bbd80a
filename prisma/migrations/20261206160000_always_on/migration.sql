-- Always-on agents: schedules (a tick per run, keyed on the run), signed inbound triggers (every
-- delivery logged, accepted webhook-ids kept for idempotency), the team skill library, and persistent
-- agents whose runs wait for the next message instead of finishing.
-- CreateEnum
CREATE TYPE "ScheduleOverlap" AS ENUM ('skip', 'queue', 'cancel_previous');

-- CreateEnum
CREATE TYPE "ScheduleCatchUp" AS ENUM ('none', 'latest');

-- CreateEnum
CREATE TYPE "TriggerAuth" AS ENUM ('standard_webhooks', 'bearer');

-- AlterTable
ALTER TABLE "AgentTemplate" ADD COLUMN     "persistent" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "skills" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "persistent" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "scheduleId" TEXT,
ADD COLUMN     "scheduledAt" TIMESTAMP(3),
ADD COLUMN     "triggerId" TEXT;

-- CreateTable
CREATE TABLE "Schedule" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "agentId" TEXT,
    "graphId" TEXT,
    "cron" TEXT,
    "everySeconds" INTEGER,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "goal" TEXT NOT NULL,
    "budget" JSONB NOT NULL DEFAULT '{}',
    "workspace" JSONB,
    "overlap" "ScheduleOverlap" NOT NULL DEFAULT 'skip',
    "catchUp" "ScheduleCatchUp" NOT NULL DEFAULT 'latest',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "pauseAfterFailures" INTEGER NOT NULL DEFAULT 5,
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "pausedReason" TEXT,
    "nextFireAt" TIMESTAMP(3),
    "lastFiredAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Schedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScheduleTick" (
    "id" TEXT NOT NULL,
    "scheduleId" TEXT NOT NULL,
    "scheduledAt" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "runId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScheduleTick_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Trigger" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "agentId" TEXT,
    "graphId" TEXT,
    "goalTemplate" TEXT,
    "budget" JSONB NOT NULL DEFAULT '{}',
    "workspace" JSONB,
    "runId" TEXT,
    "auth" "TriggerAuth" NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "rateLimitPerMinute" INTEGER NOT NULL DEFAULT 600,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Trigger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TriggerDelivery" (
    "id" TEXT NOT NULL,
    "triggerId" TEXT NOT NULL,
    "webhookId" TEXT,
    "status" INTEGER NOT NULL,
    "accepted" BOOLEAN NOT NULL,
    "reason" TEXT,
    "runId" TEXT,
    "bytes" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TriggerDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TriggerReceipt" (
    "triggerId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "messageId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TriggerReceipt_pkey" PRIMARY KEY ("triggerId","webhookId")
);

-- CreateTable
CREATE TABLE "Skill" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "instructions" TEXT NOT NULL,
    "files" JSONB NOT NULL DEFAULT '[]',
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "Skill_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Schedule_enabled_nextFireAt_idx" ON "Schedule"("enabled", "nextFireAt");

-- CreateIndex
CREATE UNIQUE INDEX "Schedule_teamId_name_key" ON "Schedule"("teamId", "name");

-- CreateIndex
CREATE INDEX "ScheduleTick_scheduleId_createdAt_id_idx" ON "ScheduleTick"("scheduleId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleTick_scheduleId_scheduledAt_key" ON "ScheduleTick"("scheduleId", "scheduledAt");

-- CreateIndex
CREATE UNIQUE INDEX "Trigger_teamId_name_key" ON "Trigger"("teamId", "name");

-- CreateIndex
CREATE INDEX "TriggerDelivery_triggerId_createdAt_id_idx" ON "TriggerDelivery"("triggerId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "TriggerReceipt_createdAt_idx" ON "TriggerReceipt"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Skill_teamId_name_key" ON "Skill"("teamId", "name");

-- CreateIndex
CREATE INDEX "Run_scheduleId_createdAt_id_idx" ON "Run"("scheduleId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Run_scheduleId_scheduledAt_key" ON "Run"("scheduleId", "scheduledAt");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "Schedule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_triggerId_fkey" FOREIGN KEY ("triggerId") REFERENCES "Trigger"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "AgentTemplate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "SwarmGraph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduleTick" ADD CONSTRAINT "ScheduleTick_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "Schedule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trigger" ADD CONSTRAINT "Trigger_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trigger" ADD CONSTRAINT "Trigger_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "AgentTemplate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trigger" ADD CONSTRAINT "Trigger_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "SwarmGraph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Trigger" ADD CONSTRAINT "Trigger_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriggerDelivery" ADD CONSTRAINT "TriggerDelivery_triggerId_fkey" FOREIGN KEY ("triggerId") REFERENCES "Trigger"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriggerReceipt" ADD CONSTRAINT "TriggerReceipt_triggerId_fkey" FOREIGN KEY ("triggerId") REFERENCES "Trigger"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Skill" ADD CONSTRAINT "Skill_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

