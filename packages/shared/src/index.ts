export { AppError, isClientError, type AppErrorCode } from './errors';
export { ROLES, roleSchema, roleAtLeast, minRole, type Role } from './roles';
export { BatchQueue, type BatchItem, type BatchQueueOptions } from './batch-queue';
export { KeyedLock } from './keyed-lock';
export { weakPasswordReason } from './common-passwords';
export {
  ISOLATION_LEVELS,
  SANDBOX_LEVEL_DRIVERS,
  isolationRank,
  meetsIsolation,
  strongerMinimum,
  type IsolationLevel,
  type SandboxLevelDriver,
} from './isolation-levels';
