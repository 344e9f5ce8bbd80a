export { AppError, isClientError, type AppErrorCode } from './errors';
export { ROLES, roleSchema, roleAtLeast, minRole, type Role } from './roles';
