-- A user's sessions carry the version they were signed in at: sign-out, a password change and removal from a team bump it.
-- AlterTable
ALTER TABLE "User" ADD COLUMN     "sessionVersion" INTEGER NOT NULL DEFAULT 0;
