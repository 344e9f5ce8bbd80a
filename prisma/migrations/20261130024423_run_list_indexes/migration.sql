-- DropIndex
DROP INDEX "Run_teamId_agentId_createdAt_idx";

-- DropIndex
DROP INDEX "Run_teamId_createdById_createdAt_idx";

-- DropIndex
DROP INDEX "Run_teamId_status_createdAt_idx";

-- CreateIndex
CREATE INDEX "Run_teamId_updatedAt_id_idx" ON "Run"("teamId", "updatedAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Run_teamId_status_createdAt_id_idx" ON "Run"("teamId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Run_teamId_agentId_createdAt_id_idx" ON "Run"("teamId", "agentId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Run_teamId_createdById_createdAt_id_idx" ON "Run"("teamId", "createdById", "createdAt" DESC, "id" DESC);
