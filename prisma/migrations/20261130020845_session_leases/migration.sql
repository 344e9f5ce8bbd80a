/*
  Warnings:

  - You are about to drop the column `leaseExpiresAt` on the `Run` table. All the data in the column will be lost.
  - You are about to drop the column `leaseOwner` on the `Run` table. All the data in the column will be lost.
  - You are about to drop the column `leaseVersion` on the `Run` table. All the data in the column will be lost.

*/
-- DropIndex
DROP INDEX "Run_status_leaseExpiresAt_idx";

-- AlterTable
ALTER TABLE "Run" DROP COLUMN "leaseExpiresAt",
DROP COLUMN "leaseOwner",
DROP COLUMN "leaseVersion",
ADD COLUMN     "busyPolicy" TEXT NOT NULL DEFAULT 'enqueue',
ADD COLUMN     "cancelRequestedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "agentId" TEXT,
ADD COLUMN     "config" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "endpointId" TEXT,
ADD COLUMN     "error" TEXT,
ADD COLUMN     "finishedAt" TIMESTAMP(3),
ADD COLUMN     "leaseExpiresAt" TIMESTAMP(3),
ADD COLUMN     "leaseOwner" TEXT,
ADD COLUMN     "leaseVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "result" TEXT,
ADD COLUMN     "waitReason" "WaitReason";

-- CreateIndex
CREATE INDEX "Run_teamId_status_updatedAt_idx" ON "Run"("teamId", "status", "updatedAt");

-- CreateIndex
CREATE INDEX "Session_status_leaseExpiresAt_idx" ON "Session"("status", "leaseExpiresAt");
