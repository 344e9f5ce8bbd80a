-- Approvals of a call's effect: the call ran, its workspace changes were rolled back and wait,
-- held in a stored commit, for an approver to keep or drop them.
ALTER TYPE "ApprovalKind" ADD VALUE 'effect';

-- kind effect: { commit, baseCommit, effect } of the held result (the diff is served from the store).
ALTER TABLE "Approval" ADD COLUMN "held" JSONB;
