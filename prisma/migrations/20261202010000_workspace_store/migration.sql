-- The workspace store of record (LOOPLANE_WORKSPACE_STORE=postgres keeps pack bytes in
-- WorkspacePackChunk; s3 keeps them in the object store and only the index here).
-- CreateTable
CREATE TABLE "WorkspacePack" (
    "runId" TEXT NOT NULL,
    "commit" TEXT NOT NULL,
    "base" TEXT,
    "sessionId" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,
    "storage" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkspacePack_pkey" PRIMARY KEY ("runId","commit")
);

-- CreateTable
CREATE TABLE "WorkspacePackChunk" (
    "runId" TEXT NOT NULL,
    "commit" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "WorkspacePackChunk_pkey" PRIMARY KEY ("runId","commit","idx")
);

-- CreateTable
CREATE TABLE "WorkspaceRemoval" (
    "runId" TEXT NOT NULL,
    "removedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reason" TEXT NOT NULL,

    CONSTRAINT "WorkspaceRemoval_pkey" PRIMARY KEY ("runId")
);

-- AddForeignKey
ALTER TABLE "WorkspacePack" ADD CONSTRAINT "WorkspacePack_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspacePackChunk" ADD CONSTRAINT "WorkspacePackChunk_runId_commit_fkey" FOREIGN KEY ("runId", "commit") REFERENCES "WorkspacePack"("runId", "commit") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WorkspaceRemoval" ADD CONSTRAINT "WorkspaceRemoval_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

