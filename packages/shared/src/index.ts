export { AppError, isClientError, type AppErrorCode } from './errors';
export { ROLES, roleSchema, roleAtLeast, minRole, type Role } from './roles';
export { BatchQueue, type BatchItem, type BatchQueueOptions } from './batch-queue';
export { KeyedLock } from './keyed-lock';
export { weakPasswordReason } from './common-passwords';
