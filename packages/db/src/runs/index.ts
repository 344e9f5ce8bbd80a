// The durable runtime's storage: raw SQL over node-postgres for the worker's hot path.
export { createPgPool, type PgPool, type PgClient, type Queryable, type PgPoolOptions } from './pg-pool';
export { WriteUnit, type Statement, type SessionLease, type DurableAppend, type WriteUnitOptions, type LedgerChange } from './write-unit';
export { PgEventStore, loadSessionEvents, type PgEventStoreOptions } from './event-store';
export { projectBatch, type BatchProjection, type TerminalStatus } from './projection';
export {
  claimSessions,
  renewLeases,
  releaseSession,
  findReconcilable,
  type ClaimedSession,
  type HeldLease,
  type RenewalReport,
  type ReleaseOptions,
  type ReleaseOutcome,
  type ReconcileCandidate,
  type SessionStatusValue,
  type WaitReasonValue,
} from './lease.repository';
export { admitAndClaim, type AdmissionCandidate, type AdmissionVerdict } from './admission.repository';
export { PgBudgetLedger, ledgerHasRoom } from './budget-ledger';
export { loadSessionContext, pendingInbox, cancelRequest, type SessionContext, type EndpointRow, type RunStatusValue } from './session-context.repository';
