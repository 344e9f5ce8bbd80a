-- A token made by a token remembers its parent: it expires no later than the parent and is revoked with it.
-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "parentId" TEXT;

-- CreateIndex
CREATE INDEX "ApiToken_parentId_idx" ON "ApiToken"("parentId");

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "ApiToken"("id") ON DELETE CASCADE ON UPDATE CASCADE;

