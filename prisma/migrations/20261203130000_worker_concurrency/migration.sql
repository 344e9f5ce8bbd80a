-- How many loops the worker runs at once (WORKER_CONCURRENCY): the overview's worker load is
-- its leased running sessions against this. Null for a worker that started before this column.
ALTER TABLE "WorkerSandboxProbe" ADD COLUMN "concurrency" INTEGER;
