-- A run may wait for a worker that offers the isolation level a deferred call needs
-- (a template's `whenIsolationUnavailable: wait`).
ALTER TYPE "WaitReason" ADD VALUE 'isolation';
