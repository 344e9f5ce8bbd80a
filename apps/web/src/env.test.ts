import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, parseEnv } from './env';

const valid = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/looplane',
  REDIS_URL: 'redis://127.0.0.1:6379',
  NEXTAUTH_SECRET: 'x'.repeat(32),
};

function failure(source: Record<string, string | undefined>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    return (error as Error).message;
  }
  throw new Error('expected parseEnv to fail');
}

describe('parseEnv', () => {
  it('accepts the required variables and applies defaults', () => {
    const env = parseEnv(valid);
    expect(env.OIDC_NAME).toBe('SSO');
    expect(env.NEXTAUTH_URL).toBeUndefined();
    expect(env.LOG_LEVEL).toBeUndefined();
  });

  it('names a missing variable in one line', () => {
    expect(failure({ ...valid, DATABASE_URL: undefined })).toBe('Invalid environment: DATABASE_URL is required (a postgres:// connection URL)');
    expect(failure({ ...valid, REDIS_URL: undefined })).toBe('Invalid environment: REDIS_URL is required (a redis:// URL)');
  });

  it('refuses a short NEXTAUTH_SECRET', () => {
    expect(failure({ ...valid, NEXTAUTH_SECRET: 'short' })).toBe('Invalid environment: NEXTAUTH_SECRET is required (at least 32 characters)');
  });

  it('refuses malformed URLs and log levels', () => {
    expect(failure({ ...valid, DATABASE_URL: 'mysql://x' })).toBe('Invalid environment: DATABASE_URL must be a postgres:// connection URL');
    expect(failure({ ...valid, NEXTAUTH_URL: 'not a url' })).toBe('Invalid environment: NEXTAUTH_URL must be an absolute URL');
    expect(failure({ ...valid, LOG_LEVEL: 'loud' })).toMatch(/^Invalid environment: LOG_LEVEL must be one of fatal, error/);
  });

  it('treats empty values as unset', () => {
    expect(parseEnv({ ...valid, NEXTAUTH_URL: '', OIDC_ISSUER: '', LOG_LEVEL: '' }).NEXTAUTH_URL).toBeUndefined();
  });

  it('wants all three OIDC variables or none', () => {
    expect(failure({ ...valid, OIDC_ISSUER: 'https://id.example.com' })).toBe(
      'Invalid environment: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together (or none of them)',
    );
    const env = parseEnv({
      ...valid,
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'looplane',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_NAME: 'Acme SSO',
    });
    expect(env.OIDC_NAME).toBe('Acme SSO');
  });

  it('takes an optional BullMQ prefix that must match the workers', () => {
    expect(parseEnv(valid).QUEUE_PREFIX).toBeUndefined();
    expect(parseEnv({ ...valid, QUEUE_PREFIX: 'looplane:prod' }).QUEUE_PREFIX).toBe('looplane:prod');
    expect(failure({ ...valid, QUEUE_PREFIX: 'has space' })).toBe('Invalid environment: QUEUE_PREFIX must be 1-64 letters, digits, :, _ or -');
  });

  it('listens on 127.0.0.1:3000 and trusts no proxy by default', () => {
    const env = parseEnv(valid);
    expect({ host: env.HOST, port: env.PORT, proxies: env.LOOPLANE_TRUSTED_PROXIES.entries }).toEqual({ host: '127.0.0.1', port: 3000, proxies: [] });
    const open = parseEnv({ ...valid, HOST: '0.0.0.0', PORT: '8080', LOOPLANE_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' });
    expect({ host: open.HOST, port: open.PORT, proxies: open.LOOPLANE_TRUSTED_PROXIES.entries }).toEqual({
      host: '0.0.0.0',
      port: 8080,
      proxies: ['10.0.0.0/8', '127.0.0.1'],
    });
    expect(failure({ ...valid, LOOPLANE_TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' })).toBe(
      'Invalid environment: LOOPLANE_TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR block (a comma-separated list of IPs and CIDR blocks)',
    );
    expect(failure({ ...valid, PORT: '70000' })).toBe('Invalid environment: PORT must be a port number between 1 and 65535');
  });

  it('has sensible sign-in limits, each configurable', () => {
    const env = parseEnv(valid);
    expect([
      env.LOOPLANE_SIGNIN_ACCOUNT_FAILURES,
      env.LOOPLANE_SIGNIN_ADDRESS_FAILURES,
      env.LOOPLANE_SIGNIN_LOCKOUT_SECONDS,
      env.LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS,
      env.LOOPLANE_SIGNIN_WINDOW_SECONDS,
    ]).toEqual([5, 20, 30, 900, 900]);
    expect(parseEnv({ ...valid, LOOPLANE_SIGNIN_ACCOUNT_FAILURES: '3' }).LOOPLANE_SIGNIN_ACCOUNT_FAILURES).toBe(3);
    expect(failure({ ...valid, LOOPLANE_SIGNIN_ACCOUNT_FAILURES: '0' })).toBe(
      'Invalid environment: LOOPLANE_SIGNIN_ACCOUNT_FAILURES must be a whole number between 1 and 1000',
    );
    expect(failure({ ...valid, LOOPLANE_SIGNIN_LOCKOUT_SECONDS: '600', LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS: '60' })).toBe(
      'Invalid environment: LOOPLANE_SIGNIN_MAX_LOCKOUT_SECONDS must be at least LOOPLANE_SIGNIN_LOCKOUT_SECONDS',
    );
  });

  it('limits the work a team may start, 0 turning a limit off', () => {
    const env = parseEnv(valid);
    expect([env.LOOPLANE_RUNS_PER_MINUTE, env.LOOPLANE_MAX_QUEUED_RUNS]).toEqual([120, 1000]);
    expect(parseEnv({ ...valid, LOOPLANE_RUNS_PER_MINUTE: '0', LOOPLANE_MAX_QUEUED_RUNS: '50' })).toMatchObject({
      LOOPLANE_RUNS_PER_MINUTE: 0,
      LOOPLANE_MAX_QUEUED_RUNS: 50,
    });
    expect(failure({ ...valid, LOOPLANE_RUNS_PER_MINUTE: 'lots' })).toBe(
      'Invalid environment: LOOPLANE_RUNS_PER_MINUTE must be a whole number between 0 and 1000000',
    );
  });

  it('takes uploads of up to 100 MiB unless LOOPLANE_UPLOAD_MAX_MB says otherwise (1 to 256)', () => {
    expect(parseEnv(valid).LOOPLANE_UPLOAD_MAX_MB).toBe(100);
    expect(parseEnv({ ...valid, LOOPLANE_UPLOAD_MAX_MB: '5' }).LOOPLANE_UPLOAD_MAX_MB).toBe(5);
    expect(failure({ ...valid, LOOPLANE_UPLOAD_MAX_MB: '1024' })).toBe('Invalid environment: LOOPLANE_UPLOAD_MAX_MB must be a whole number between 1 and 256');
  });

  it('lets webhooks point at public addresses only unless LOOPLANE_WEBHOOKS_ALLOW_PRIVATE=true', () => {
    expect(parseEnv(valid).LOOPLANE_WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(parseEnv({ ...valid, LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: 'true' }).LOOPLANE_WEBHOOKS_ALLOW_PRIVATE).toBe(true);
    expect(failure({ ...valid, LOOPLANE_WEBHOOKS_ALLOW_PRIVATE: '1' })).toBe('Invalid environment: LOOPLANE_WEBHOOKS_ALLOW_PRIVATE must be true or false');
  });

  it('lets model endpoints reach special-purpose addresses only as LOOPLANE_ENDPOINTS_ALLOW lists them', () => {
    expect(parseEnv(valid).LOOPLANE_ENDPOINTS_ALLOW).toEqual([]);
    expect(parseEnv({ ...valid, LOOPLANE_ENDPOINTS_ALLOW: ' ' }).LOOPLANE_ENDPOINTS_ALLOW).toEqual([]);
    expect(parseEnv({ ...valid, LOOPLANE_ENDPOINTS_ALLOW: '127.0.0.1:11434, localhost, 169.254.0.0/16' }).LOOPLANE_ENDPOINTS_ALLOW.map((e) => e.type)).toEqual([
      'address',
      'host',
      'range',
    ]);
    expect(failure({ ...valid, LOOPLANE_ENDPOINTS_ALLOW: '127.0.0.1,http://10.0.0.1' })).toBe(
      'Invalid environment: LOOPLANE_ENDPOINTS_ALLOW must be a comma-separated list of hosts, host:port or CIDR ranges ("http://10.0.0.1" is none of them)',
    );
  });
});
