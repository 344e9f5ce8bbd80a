export { createDb, type Db, type CreateDbOptions } from './client';
export { Prisma } from './generated/prisma/client';
export type { Role as DbRole } from './generated/prisma/client';
export { hashPassword, verifyPassword, generatePassword } from './crypto/password';
export { generateApiToken, hashApiToken, displayPrefix, TOKEN_PREFIX } from './crypto/api-token';
export { SecretBox } from './crypto/secret-box';
export { GENESIS_HASH, canonicalJson, chainHash, type AuditRowContent } from './audit/chain';
export { appendAudit, recordAudit, type AuditActor, type AuditEntry, type Tx } from './audit/audit.repository';
export { seedDatabase, ADMIN_EMAIL, DEMO_TEAM_SLUG, type SeedOptions, type SeedResult } from './seed';
