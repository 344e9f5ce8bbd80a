import type { CliEnv } from '../env';
import { browserUrl, type ListenAddress } from './listen-address';

/** What `looplane start` made or found for the processes it starts. */
export interface AppSettings {
  databaseUrl: string;
  /** With the private Redis's password in it, or the REDIS_URL given. */
  redisUrl: string;
  nextauthSecret: string;
  encryptionKey: string;
  supervisorState: string;
}

/**
 * The complete environments of the web app and the worker that `looplane start` runs: nothing
 * else of the CLI's own environment reaches them. Both get HOST (default 127.0.0.1): the web binds
 * it, and so does the worker's metrics listener when one is configured.
 */
export function appEnvironments(env: CliEnv, settings: AppSettings): { web: Record<string, string>; worker: Record<string, string> } {
  const listen: ListenAddress = { host: env.HOST, port: env.PORT };
  const shared = {
    ...env.inherited,
    ...env.productSettings,
    NODE_ENV: 'production',
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    NEXTAUTH_SECRET: settings.nextauthSecret,
    NEXTAUTH_URL: browserUrl(listen),
    LOOPLANE_ENCRYPTION_KEY: settings.encryptionKey,
    LOG_LEVEL: env.LOG_LEVEL,
    LOOPLANE_SUPERVISOR_STATE: settings.supervisorState,
    // The web reads, and the worker caches, session workspaces under the same data directory.
    LOOPLANE_HOME: env.LOOPLANE_HOME,
    HOST: env.HOST,
  };
  return {
    web: { ...shared, PORT: String(env.PORT), NEXT_TELEMETRY_DISABLED: '1' },
    worker: shared,
  };
}
