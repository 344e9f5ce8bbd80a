// The durable runtime's storage: raw SQL over node-postgres for the worker's hot path.
export { createPgPool, withClient, type PgPool, type PgClient, type Queryable } from './pg-pool';
export { WriteUnit, type UnitAudit } from './write-unit';
export type { SessionLease, DurableAppend } from './write-buffer';
export { FlushBatcher } from './flush-batcher';
export { PgEventStore, loadSessionEvents } from './event-store';
export { claimSessions, renewLeases, releaseSession, findReconcilable, failSession, type ClaimedSession, type ReleaseOutcome } from './lease.repository';
export { admitAndClaim, type AdmissionCandidate, type AdmissionVerdict } from './admission.repository';
export { PgBudgetLedger, ledgerHasRoom } from './budget-ledger';
export { loadSessionContexts, pendingInbox, cancelRequest, type SessionContext, type EndpointRow } from './session-context.repository';
export { queryableOf } from './prisma-queryable';
export { insertQueuedRuns, type QueuedRunInsert } from './run-create-batch.repository';
export { teamRunStartUsage, type RunStartUsage } from './run-start-usage.repository';
export { listRunsPage, runsPageQuery, type RunsPage, type RunsPageRow, type RunsPageStatement } from './runs-page.repository';
export { readEventFrameRows, readEventFrameRowsOfRuns, type EventFrameRow } from './event-frames.repository';
