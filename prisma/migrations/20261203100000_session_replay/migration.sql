-- Replay branches (sessions.replay): the source session, event, mode and overrides a replay was made with.
-- AlterTable
ALTER TABLE "Session" ADD COLUMN "replay" JSONB;
