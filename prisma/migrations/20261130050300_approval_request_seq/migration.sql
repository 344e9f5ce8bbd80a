-- One approval row per `approval.requested` event (the worker inserts it idempotently).
CREATE UNIQUE INDEX "Approval_sessionId_requestSeq_key" ON "Approval"("sessionId", "requestSeq");
