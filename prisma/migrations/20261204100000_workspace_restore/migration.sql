-- A person's request to put a session's files back as they were at an earlier event (sessions.restore):
-- recorded by the API, settled by the worker in the commit that appends workspace.restored.
-- CreateTable
CREATE TABLE "WorkspaceRestore" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "atEvent" INTEGER NOT NULL,
    "sourceCommit" TEXT,
    "paths" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "requestedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" TIMESTAMP(3),
    "appliedSeq" INTEGER,
    "commit" TEXT,
    "error" TEXT,

    CONSTRAINT "WorkspaceRestore_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WorkspaceRestore_sessionId_appliedAt_createdAt_idx" ON "WorkspaceRestore"("sessionId", "appliedAt", "createdAt");

-- AddForeignKey
ALTER TABLE "WorkspaceRestore" ADD CONSTRAINT "WorkspaceRestore_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
