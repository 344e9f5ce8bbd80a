import { describe, expect, it } from 'vitest';
import { loadCliEnv } from '../env';
import { appEnvironments } from './app-env';
import { localUrl } from './listen-address';

const settings = {
  databaseUrl: 'postgresql://looplane:pw@127.0.0.1:5544/looplane',
  redisUrl: 'redis://:redis-password-0123456789@127.0.0.1:6544',
  nextauthSecret: 'n'.repeat(43),
  encryptionKey: 'k'.repeat(44),
  supervisorState: '/srv/looplane/supervisor.json',
};

describe('what looplane start gives the web and the worker', () => {
  it('binds the dashboard to 127.0.0.1 unless HOST says otherwise', () => {
    const { web, worker } = appEnvironments(loadCliEnv({ PATH: '/usr/bin' }, '/srv'), settings);
    expect(web).toMatchObject({ HOST: '127.0.0.1', PORT: '3000', NEXTAUTH_URL: 'http://localhost:3000' });
    // The worker's metrics listener (when configured) binds the same.
    expect(worker.HOST).toBe('127.0.0.1');
    expect(worker.PORT).toBeUndefined();

    const open = appEnvironments(loadCliEnv({ HOST: '0.0.0.0', PORT: '8080' }, '/srv'), settings);
    expect(open.web).toMatchObject({ HOST: '0.0.0.0', PORT: '8080', NEXTAUTH_URL: 'http://localhost:8080' });
    expect(localUrl({ host: '0.0.0.0', port: 8080 })).toBe('http://127.0.0.1:8080');
    const one = appEnvironments(loadCliEnv({ HOST: '10.1.2.3' }, '/srv'), settings);
    expect(one.web.NEXTAUTH_URL).toBe('http://10.1.2.3:3000');
  });

  it('hands both the Redis URL with its password, and the product settings, and nothing else of the environment', () => {
    const env = loadCliEnv({ PATH: '/usr/bin', LOOPLANE_TRUSTED_PROXIES: '10.0.0.0/8', AWS_SECRET_ACCESS_KEY: 'never', SOME_OTHER: 'x' }, '/srv');
    const { web, worker } = appEnvironments(env, settings);
    for (const child of [web, worker]) {
      expect(child.REDIS_URL).toBe(settings.redisUrl);
      expect(child.LOOPLANE_TRUSTED_PROXIES).toBe('10.0.0.0/8');
      expect(child.AWS_SECRET_ACCESS_KEY).toBeUndefined();
      expect(child.SOME_OTHER).toBeUndefined();
    }
  });
});
