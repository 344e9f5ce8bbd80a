import { createPgPool, type PgPool } from '@looplane/db';
import pino from 'pino';
import { TeamEgressSource, type EgressSource } from './team-egress';

/**
 * A real {@link TeamEgressSource} for a runtime suite, whose database exists only once the suite
 * has started: the pool is opened on first use. `close` ends it. Opened secrets are not kept
 * (`ttlMs` 0) unless `ttlMs` says otherwise (the worker's own default is 2 s).
 */
export function lazyEgressSource(databaseUrl: () => string, encryptionKey: string | undefined, ttlMs = 0): EgressSource & { close(): Promise<void> } {
  let pool: PgPool | null = null;
  let source: TeamEgressSource | null = null;
  const get = () => {
    pool ??= createPgPool(databaseUrl(), { max: 2 });
    source ??= new TeamEgressSource({ pool, encryptionKey, logger: pino({ level: 'silent' }), ttlMs });
    return source;
  };
  return {
    policy: (teamId) => get().policy(teamId),
    secrets: (teamId, names) => get().secrets(teamId, names),
    close: async () => {
      await pool?.end();
    },
  };
}
