import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, loadCliEnv } from './env';

const load = (source: Record<string, string | undefined>) => loadCliEnv(source, '/srv/app');

function messageOf(source: Record<string, string | undefined>): string {
  try {
    load(source);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    return (error as Error).message;
  }
  throw new Error('expected the environment to be rejected');
}

describe('loadCliEnv', () => {
  it('applies the defaults for an empty environment', () => {
    const env = load({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.LOOPLANE_HOME).toBe('/srv/app/.looplane');
    expect(env.LOG_LEVEL).toBe('info');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
  });

  it('treats empty values as unset', () => {
    const env = load({ PORT: '', DATABASE_URL: ' ', LOG_LEVEL: '' });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('resolves a relative LOOPLANE_HOME against the working directory', () => {
    expect(load({ LOOPLANE_HOME: 'data/ll' }).LOOPLANE_HOME).toBe('/srv/app/data/ll');
    expect(load({ LOOPLANE_HOME: '/var/lib/looplane' }).LOOPLANE_HOME).toBe('/var/lib/looplane');
  });

  it('accepts well-formed values', () => {
    const key = randomBytes(32).toString('base64');
    const env = load({
      PORT: '8080',
      DATABASE_URL: 'postgresql://u:p@db:5432/looplane',
      REDIS_URL: 'rediss://cache:6380',
      LOOPLANE_ADMIN_PASSWORD: 'correct horse',
      LOOPLANE_BOOTSTRAP_TOKEN: 'llp_abcdefghijklmnopqrstuvwxyz-_0123',
      NEXTAUTH_SECRET: 'x'.repeat(32),
      LOOPLANE_ENCRYPTION_KEY: key,
      LOG_LEVEL: 'debug',
    });
    expect(env.PORT).toBe(8080);
    expect(env.LOOPLANE_ENCRYPTION_KEY).toBe(key);
    expect(env.LOG_LEVEL).toBe('debug');
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid environment: PORT must be a port number between 1 and 65535 (got "abc")'],
    [{ PORT: '70000' }, 'Invalid environment: PORT must be a port number between 1 and 65535 (got "70000")'],
    [{ PORT: '0' }, 'Invalid environment: PORT must be a port number between 1 and 65535 (got "0")'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'Invalid environment: DATABASE_URL must be a postgres:// connection URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'Invalid environment: REDIS_URL must be a redis:// or rediss:// URL'],
    [{ LOOPLANE_ADMIN_PASSWORD: 'short' }, 'Invalid environment: LOOPLANE_ADMIN_PASSWORD must be at least 8 characters'],
    [{ LOOPLANE_ADMIN_PASSWORD: 'Password1' }, 'Invalid environment: LOOPLANE_ADMIN_PASSWORD is one of the most common passwords; choose another'],
    [{ NEXTAUTH_SECRET: 'too-short' }, 'Invalid environment: NEXTAUTH_SECRET must be at least 32 characters'],
    [{ LOG_LEVEL: 'verbose' }, 'Invalid environment: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")'],
  ])('names the malformed variable: %o', (source, message) => {
    expect(messageOf(source)).toBe(message);
  });

  it('rejects a bootstrap token that is too short or contains spaces', () => {
    expect(messageOf({ LOOPLANE_BOOTSTRAP_TOKEN: 'llp_short' })).toMatch(
      /^Invalid environment: LOOPLANE_BOOTSTRAP_TOKEN must be 16 to 200 printable characters/,
    );
    expect(messageOf({ LOOPLANE_BOOTSTRAP_TOKEN: 'has a space in it, 0123456789' })).toMatch(/LOOPLANE_BOOTSTRAP_TOKEN/);
  });

  it('rejects an encryption key that is not 32 bytes of base64', () => {
    expect(messageOf({ LOOPLANE_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toMatch(
      /^Invalid environment: LOOPLANE_ENCRYPTION_KEY must be 32 random bytes/,
    );
    expect(messageOf({ LOOPLANE_ENCRYPTION_KEY: 'not base64 at all!!' })).toMatch(/LOOPLANE_ENCRYPTION_KEY/);
  });

  it('never echoes the value of a secret', () => {
    const message = messageOf({ NEXTAUTH_SECRET: 'hunter2-secret', LOOPLANE_ADMIN_PASSWORD: 'pw' });
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('"pw"');
  });

  it('reports every malformed variable on one line', () => {
    const message = messageOf({ PORT: 'abc', REDIS_URL: 'nope' });
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('PORT');
    expect(message).toContain('REDIS_URL');
  });

  it('lets children inherit only the basics, never secrets', () => {
    const env = load({ PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8', NEXTAUTH_SECRET: 'x'.repeat(32), AWS_SECRET_ACCESS_KEY: 'k' });
    expect(env.inherited).toEqual({ PATH: '/usr/bin', HOME: '/root', LANG: 'C.UTF-8' });
  });

  it('defaults the server of run/tail to localhost:3000 and validates it and the token', () => {
    expect(load({}).LOOPLANE_URL).toBe('http://localhost:3000');
    expect(load({}).LOOPLANE_TOKEN).toBeUndefined();
    expect(load({ LOOPLANE_URL: 'https://looplane.example.com/', LOOPLANE_TOKEN: 'llp_abc' })).toMatchObject({
      LOOPLANE_URL: 'https://looplane.example.com',
      LOOPLANE_TOKEN: 'llp_abc',
    });
    expect(messageOf({ LOOPLANE_URL: 'localhost:3000' })).toBe('Invalid environment: LOOPLANE_URL must be an http:// or https:// URL');
    expect(messageOf({ LOOPLANE_TOKEN: 'has a space' })).not.toContain('has a space');
  });

  it('hands product settings (SSO, metrics, tracing, queue) to web and worker, and nothing else of the environment', () => {
    const env = loadCliEnv(
      {
        OIDC_ISSUER: 'https://idp.example.test',
        OIDC_CLIENT_ID: 'looplane',
        OIDC_CLIENT_SECRET: 'shh',
        LOOPLANE_METRICS_TOKEN: 'a-metrics-token-123456',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        WORKER_CONCURRENCY: ' 50 ',
        QUEUE_PREFIX: '',
        AWS_SECRET_ACCESS_KEY: 'never-passed',
        PATH: '/usr/bin',
      },
      '/tmp',
    );
    expect(env.productSettings).toEqual({
      OIDC_ISSUER: 'https://idp.example.test',
      OIDC_CLIENT_ID: 'looplane',
      OIDC_CLIENT_SECRET: 'shh',
      LOOPLANE_METRICS_TOKEN: 'a-metrics-token-123456',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      WORKER_CONCURRENCY: '50',
    });
    expect(env.inherited).toEqual({ PATH: '/usr/bin' });
  });

  it('listens on this machine only by default; HOST opens it and is validated', () => {
    expect(load({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(load({ HOST: ' ' }).HOST).toBe('127.0.0.1');
    expect(messageOf({ HOST: 'not a host' })).toBe(
      'Invalid environment: HOST must be a host name or an IP address (e.g. 0.0.0.0 for every interface) (got "not a host")',
    );
  });

  it('hands the trusted proxies and the sign-in limits on to the web', () => {
    const env = loadCliEnv({ LOOPLANE_TRUSTED_PROXIES: '10.0.0.0/8', LOOPLANE_SIGNIN_ACCOUNT_FAILURES: '3', LOOPLANE_SIGNIN_LOCKOUT_SECONDS: '60' }, '/tmp');
    expect(env.productSettings).toEqual({
      LOOPLANE_TRUSTED_PROXIES: '10.0.0.0/8',
      LOOPLANE_SIGNIN_ACCOUNT_FAILURES: '3',
      LOOPLANE_SIGNIN_LOCKOUT_SECONDS: '60',
    });
  });

  it('hands the workspace store settings on, and the AWS credentials only for the s3 store', () => {
    const store = { LOOPLANE_S3_BUCKET: 'sessions', LOOPLANE_WORKSPACE_CACHE_MB: '2048', AWS_ACCESS_KEY_ID: 'key', AWS_SECRET_ACCESS_KEY: 'secret' };
    expect(loadCliEnv({ ...store, LOOPLANE_WORKSPACE_STORE: 'postgres' }, '/tmp').productSettings).toEqual({
      LOOPLANE_WORKSPACE_STORE: 'postgres',
      LOOPLANE_S3_BUCKET: 'sessions',
      LOOPLANE_WORKSPACE_CACHE_MB: '2048',
    });
    expect(loadCliEnv({ ...store, LOOPLANE_WORKSPACE_STORE: 's3' }, '/tmp').productSettings).toEqual({
      LOOPLANE_WORKSPACE_STORE: 's3',
      LOOPLANE_S3_BUCKET: 'sessions',
      LOOPLANE_WORKSPACE_CACHE_MB: '2048',
      AWS_ACCESS_KEY_ID: 'key',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
  });
});
