import { createHash } from 'node:crypto';

/** prevHash of the first row of every team's chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of an audit row that the hash covers. */
export interface AuditRowContent {
  teamId: string;
  seq: number;
  actorType: 'user' | 'token' | 'system';
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  data: unknown;
  ip: string | null;
  createdAt: string; // ISO-8601 with milliseconds
}

/** JSON with object keys sorted at every depth, so equal content always hashes equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined)
        .map((key) => [key, sortKeys(record[key])]),
    );
  }
  return value;
}

/** hash = sha256(prevHash + canonical(row)), hex. */
export function chainHash(prevHash: string, row: AuditRowContent): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(row)).digest('hex');
}
