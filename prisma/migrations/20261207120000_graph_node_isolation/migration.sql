-- A graph node may ask for a minimum sandbox isolation level for its sessions' calls.
ALTER TABLE "GraphNode" ADD COLUMN "minimumDriver" TEXT;
