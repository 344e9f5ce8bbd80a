-- Shadow policy: a saved version every live call is also decided under without enforcing it, and
-- the calls it decided otherwise than the active version (one row per call).
-- AlterTable
ALTER TABLE "Policy" ADD COLUMN     "shadowId" TEXT,
ADD COLUMN     "shadowSetAt" TIMESTAMP(3),
ADD COLUMN     "shadowSetById" TEXT,
ADD COLUMN     "shadowVersion" INTEGER;

-- CreateTable
CREATE TABLE "PolicyShadowDisagreement" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "shadowId" TEXT NOT NULL,
    "callKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "seq" INTEGER,
    "tool" TEXT NOT NULL,
    "activeVersion" INTEGER NOT NULL,
    "activeOutcome" TEXT NOT NULL,
    "activeRuleId" TEXT NOT NULL,
    "shadowVersion" INTEGER NOT NULL,
    "shadowOutcome" TEXT NOT NULL,
    "shadowRuleId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PolicyShadowDisagreement_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PolicyShadowDisagreement_callKey_key" ON "PolicyShadowDisagreement"("callKey");

-- CreateIndex
CREATE INDEX "PolicyShadowDisagreement_teamId_shadowId_createdAt_id_idx" ON "PolicyShadowDisagreement"("teamId", "shadowId", "createdAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "PolicyShadowDisagreement" ADD CONSTRAINT "PolicyShadowDisagreement_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
