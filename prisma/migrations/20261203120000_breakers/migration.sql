-- A session a breaker paused waits in the approvals inbox as an approval of kind breaker.
-- AlterEnum
ALTER TYPE "ApprovalKind" ADD VALUE 'breaker';
