-- Work in, work out: where a run's files come from (a repository, an upload, another session), the
-- defaults agents and graph nodes carry, secret kinds for repositories and forges, and uploads.
CREATE TYPE "SecretKind" AS ENUM ('header', 'token', 'ssh_key');
CREATE TYPE "Forge" AS ENUM ('github', 'gitlab', 'gitea');

ALTER TABLE "AgentTemplate" ADD COLUMN "workspace" JSONB;
ALTER TABLE "Run" ADD COLUMN "workspace" JSONB;
ALTER TABLE "GraphNode" ADD COLUMN "workspace" JSONB;

ALTER TABLE "TeamSecret" ADD COLUMN "kind" "SecretKind" NOT NULL DEFAULT 'header',
  ADD COLUMN "username" TEXT,
  ADD COLUMN "forge" "Forge",
  ADD COLUMN "apiUrl" TEXT;

CREATE TABLE "Upload" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "createdById" TEXT,
    "createdByTokenId" TEXT,
    "filename" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "files" INTEGER NOT NULL,
    "unpackedBytes" BIGINT NOT NULL,
    "sha256" TEXT NOT NULL,
    "data" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "Upload_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "Upload_teamId_createdAt_idx" ON "Upload"("teamId", "createdAt");
CREATE INDEX "Upload_expiresAt_idx" ON "Upload"("expiresAt");
ALTER TABLE "Upload" ADD CONSTRAINT "Upload_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
