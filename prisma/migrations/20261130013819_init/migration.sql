-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'approver', 'operator', 'viewer');

-- CreateEnum
CREATE TYPE "EndpointKind" AS ENUM ('openai', 'faux');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('queued', 'running', 'waiting', 'paused', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "WaitReason" AS ENUM ('approval', 'child', 'budget', 'message');

-- CreateEnum
CREATE TYPE "SessionStatus" AS ENUM ('idle', 'running', 'waiting', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "ApprovalStatus" AS ENUM ('pending', 'approved', 'rejected', 'expired', 'cancelled');

-- CreateEnum
CREATE TYPE "ApprovalKind" AS ENUM ('tool', 'budget', 'edge');

-- CreateEnum
CREATE TYPE "NodeIsolation" AS ENUM ('shared', 'process');

-- CreateEnum
CREATE TYPE "LedgerScope" AS ENUM ('run', 'edge', 'session');

-- CreateEnum
CREATE TYPE "ActorType" AS ENUM ('user', 'token', 'system');

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT,
    "disabledAt" TIMESTAMP(3),
    "lastLoginAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserIdentity" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UserIdentity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Team" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Membership" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "lastUsedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "revokedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelEndpoint" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "EndpointKind" NOT NULL,
    "baseUrl" TEXT,
    "model" TEXT NOT NULL,
    "keyCiphertext" TEXT,
    "keyLast4" TEXT,
    "inputMicrosPerMTok" INTEGER NOT NULL DEFAULT 0,
    "outputMicrosPerMTok" INTEGER NOT NULL DEFAULT 0,
    "contextWindow" INTEGER NOT NULL DEFAULT 128000,
    "maxOutputTokens" INTEGER NOT NULL DEFAULT 4096,
    "timeoutMs" INTEGER NOT NULL DEFAULT 60000,
    "maxRetries" INTEGER NOT NULL DEFAULT 3,
    "config" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "ModelEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentTemplate" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "endpointId" TEXT NOT NULL,
    "systemPrompt" TEXT NOT NULL DEFAULT '',
    "tools" JSONB NOT NULL DEFAULT '[]',
    "sandbox" JSONB NOT NULL DEFAULT '{}',
    "slashCommands" JSONB NOT NULL DEFAULT '[]',
    "busyPolicy" TEXT NOT NULL DEFAULT 'enqueue',
    "maxConcurrentRuns" INTEGER,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "AgentTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "agentId" TEXT,
    "graphId" TEXT,
    "graphVersion" INTEGER,
    "goal" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'queued',
    "waitReason" "WaitReason",
    "createdById" TEXT,
    "createdByTokenId" TEXT,
    "rootSessionId" TEXT,
    "mainSessionId" TEXT,
    "budget" JSONB NOT NULL DEFAULT '{}',
    "spentTokens" BIGINT NOT NULL DEFAULT 0,
    "spentCostMicros" BIGINT NOT NULL DEFAULT 0,
    "toolCalls" INTEGER NOT NULL DEFAULT 0,
    "lastEventNo" BIGINT NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseVersion" INTEGER NOT NULL DEFAULT 0,
    "leaseExpiresAt" TIMESTAMP(3),
    "priority" INTEGER NOT NULL DEFAULT 0,
    "result" TEXT,
    "error" TEXT,
    "traceId" TEXT,
    "cancelledById" TEXT,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "parentId" TEXT,
    "forkSeq" INTEGER,
    "status" "SessionStatus" NOT NULL DEFAULT 'idle',
    "nodeKey" TEXT,
    "edgeId" TEXT,
    "title" TEXT NOT NULL DEFAULT '',
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "workspaceCommit" TEXT,
    "costMicros" BIGINT NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" BIGSERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "eventNo" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "kind" "ApprovalKind" NOT NULL DEFAULT 'tool',
    "requestSeq" INTEGER NOT NULL,
    "toolCallId" TEXT,
    "tool" TEXT,
    "args" JSONB NOT NULL DEFAULT '{}',
    "editedArgs" JSONB,
    "risk" TEXT NOT NULL DEFAULT 'medium',
    "policyRuleId" TEXT,
    "policyVersionId" TEXT,
    "graphEdgeId" TEXT,
    "requiredRole" "Role" NOT NULL DEFAULT 'approver',
    "fourEyes" BOOLEAN NOT NULL DEFAULT false,
    "status" "ApprovalStatus" NOT NULL DEFAULT 'pending',
    "requestedById" TEXT,
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3),
    "comment" TEXT,
    "expiresAt" TIMESTAMP(3),
    "expiryOutcome" TEXT NOT NULL DEFAULT 'reject',
    "escalateAt" TIMESTAMP(3),
    "escalateToRole" "Role",
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Policy" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "activeVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Policy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PolicyVersion" (
    "id" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "document" JSONB NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PolicyVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SwarmGraph" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "currentVersion" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "SwarmGraph_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GraphVersion" (
    "id" TEXT NOT NULL,
    "graphId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "rootNodeKey" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GraphVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GraphNode" (
    "id" TEXT NOT NULL,
    "graphVersionId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "isolation" "NodeIsolation" NOT NULL DEFAULT 'shared',
    "readPrefixes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "writePrefixes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "position" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "GraphNode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GraphEdge" (
    "id" TEXT NOT NULL,
    "graphVersionId" TEXT NOT NULL,
    "fromKey" TEXT NOT NULL,
    "toKey" TEXT NOT NULL,
    "purpose" TEXT NOT NULL DEFAULT '',
    "budget" JSONB NOT NULL DEFAULT '{}',
    "approvalRule" JSONB NOT NULL DEFAULT '{"mode":"never"}',
    "dataRule" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "GraphEdge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BudgetLedger" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "scope" "LedgerScope" NOT NULL,
    "scopeId" TEXT NOT NULL DEFAULT '',
    "limitTokens" BIGINT,
    "limitCostMicros" BIGINT,
    "limitCalls" INTEGER,
    "limitConcurrent" INTEGER,
    "reservedTokens" BIGINT NOT NULL DEFAULT 0,
    "reservedCostMicros" BIGINT NOT NULL DEFAULT 0,
    "spentTokens" BIGINT NOT NULL DEFAULT 0,
    "spentCostMicros" BIGINT NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "concurrent" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BudgetLedger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BudgetEntry" (
    "id" BIGSERIAL NOT NULL,
    "ledgerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "costMicros" BIGINT NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "reservation" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BudgetEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MemoryEntry" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "value" JSONB NOT NULL,
    "sessionId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MemoryEntry_pkey" PRIMARY KEY ("runId","key")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" BIGSERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "actorType" "ActorType" NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "ip" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "UserIdentity_userId_idx" ON "UserIdentity"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "UserIdentity_provider_subject_key" ON "UserIdentity"("provider", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "Team_slug_key" ON "Team"("slug");

-- CreateIndex
CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Membership_teamId_userId_key" ON "Membership"("teamId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_teamId_createdAt_idx" ON "ApiToken"("teamId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ModelEndpoint_teamId_name_key" ON "ModelEndpoint"("teamId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "AgentTemplate_teamId_name_key" ON "AgentTemplate"("teamId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Run_rootSessionId_key" ON "Run"("rootSessionId");

-- CreateIndex
CREATE INDEX "Run_teamId_createdAt_id_idx" ON "Run"("teamId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Run_teamId_status_createdAt_idx" ON "Run"("teamId", "status", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_teamId_agentId_createdAt_idx" ON "Run"("teamId", "agentId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_teamId_createdById_createdAt_idx" ON "Run"("teamId", "createdById", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Run_status_leaseExpiresAt_idx" ON "Run"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Session_runId_createdAt_idx" ON "Session"("runId", "createdAt");

-- CreateIndex
CREATE INDEX "Session_parentId_idx" ON "Session"("parentId");

-- CreateIndex
CREATE INDEX "Event_runId_type_idx" ON "Event"("runId", "type");

-- CreateIndex
CREATE UNIQUE INDEX "Event_sessionId_seq_key" ON "Event"("sessionId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "Event_runId_eventNo_key" ON "Event"("runId", "eventNo");

-- CreateIndex
CREATE INDEX "Approval_teamId_status_createdAt_idx" ON "Approval"("teamId", "status", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Approval_runId_idx" ON "Approval"("runId");

-- CreateIndex
CREATE INDEX "Approval_status_expiresAt_idx" ON "Approval"("status", "expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Policy_teamId_name_key" ON "Policy"("teamId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "PolicyVersion_policyId_version_key" ON "PolicyVersion"("policyId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "SwarmGraph_teamId_name_key" ON "SwarmGraph"("teamId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "GraphVersion_graphId_version_key" ON "GraphVersion"("graphId", "version");

-- CreateIndex
CREATE UNIQUE INDEX "GraphNode_graphVersionId_key_key" ON "GraphNode"("graphVersionId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "GraphEdge_graphVersionId_fromKey_toKey_key" ON "GraphEdge"("graphVersionId", "fromKey", "toKey");

-- CreateIndex
CREATE UNIQUE INDEX "BudgetLedger_runId_scope_scopeId_key" ON "BudgetLedger"("runId", "scope", "scopeId");

-- CreateIndex
CREATE INDEX "BudgetEntry_ledgerId_createdAt_idx" ON "BudgetEntry"("ledgerId", "createdAt");

-- CreateIndex
CREATE INDEX "AuditLog_teamId_createdAt_idx" ON "AuditLog"("teamId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "AuditLog_teamId_action_createdAt_idx" ON "AuditLog"("teamId", "action", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "AuditLog_teamId_seq_key" ON "AuditLog"("teamId", "seq");

-- AddForeignKey
ALTER TABLE "UserIdentity" ADD CONSTRAINT "UserIdentity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_revokedById_fkey" FOREIGN KEY ("revokedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelEndpoint" ADD CONSTRAINT "ModelEndpoint_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentTemplate" ADD CONSTRAINT "AgentTemplate_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentTemplate" ADD CONSTRAINT "AgentTemplate_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "ModelEndpoint"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "AgentTemplate"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "SwarmGraph"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Session"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Approval" ADD CONSTRAINT "Approval_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Policy" ADD CONSTRAINT "Policy_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PolicyVersion" ADD CONSTRAINT "PolicyVersion_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "Policy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SwarmGraph" ADD CONSTRAINT "SwarmGraph_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GraphVersion" ADD CONSTRAINT "GraphVersion_graphId_fkey" FOREIGN KEY ("graphId") REFERENCES "SwarmGraph"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GraphNode" ADD CONSTRAINT "GraphNode_graphVersionId_fkey" FOREIGN KEY ("graphVersionId") REFERENCES "GraphVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GraphNode" ADD CONSTRAINT "GraphNode_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "AgentTemplate"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GraphEdge" ADD CONSTRAINT "GraphEdge_graphVersionId_fkey" FOREIGN KEY ("graphVersionId") REFERENCES "GraphVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BudgetLedger" ADD CONSTRAINT "BudgetLedger_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BudgetEntry" ADD CONSTRAINT "BudgetEntry_ledgerId_fkey" FOREIGN KEY ("ledgerId") REFERENCES "BudgetLedger"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MemoryEntry" ADD CONSTRAINT "MemoryEntry_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------
-- Hand-written, not generated by Prisma (Prisma has no syntax for triggers).
--
-- Append-only tables: "AuditLog" (the tamper-evident hash chain), "Event" (the
-- run event log) and "PolicyVersion" (every saved policy version is kept).
-- Rows may be inserted, never changed or removed, whatever the application
-- does; a fix is a new row. BEFORE ... FOR EACH ROW so the statement fails
-- before touching anything.
--
-- Deleting a parent row whose ON DELETE CASCADE reaches one of these tables
-- (a Run's Events, a Policy's versions) is refused too: retention has to be
-- an explicit, deliberate operation (e.g. dropping the trigger in a
-- migration), not a side effect. "AuditLog" -> "Team" is ON DELETE RESTRICT
-- already.
--
-- Keep this block at the END of the migration: Prisma checksums the whole
-- file when applying it, so editing an applied migration breaks
-- `migrate status` / `migrate deploy` on every existing database.
-- ---------------------------------------------------------------------------

-- Raises "<Table> rows are immutable" for the table the trigger fired on.
CREATE FUNCTION "looplane_refuse_row_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME
    USING HINT = 'This table is append-only: insert a new row instead.';
END;
$$;

CREATE TRIGGER "AuditLog_immutable"
  BEFORE UPDATE OR DELETE ON "AuditLog"
  FOR EACH ROW EXECUTE FUNCTION "looplane_refuse_row_change"();

CREATE TRIGGER "Event_immutable"
  BEFORE UPDATE OR DELETE ON "Event"
  FOR EACH ROW EXECUTE FUNCTION "looplane_refuse_row_change"();

CREATE TRIGGER "PolicyVersion_immutable"
  BEFORE UPDATE OR DELETE ON "PolicyVersion"
  FOR EACH ROW EXECUTE FUNCTION "looplane_refuse_row_change"();
