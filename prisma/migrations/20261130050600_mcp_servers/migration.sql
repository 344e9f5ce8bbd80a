-- CreateTable
CREATE TABLE "McpServer" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "command" TEXT,
    "args" JSONB NOT NULL DEFAULT '[]',
    "url" TEXT,
    "tools" JSONB NOT NULL DEFAULT '[]',
    "toolsCheckedAt" TIMESTAMP(3),
    "toolsError" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpServer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "McpServer_teamId_name_key" ON "McpServer"("teamId", "name");

-- AddForeignKey
ALTER TABLE "McpServer" ADD CONSTRAINT "McpServer_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
