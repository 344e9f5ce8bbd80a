import { describe, expect, it } from 'vitest';
import { loadWorkerEnv } from '../env';

const base = { DATABASE_URL: 'postgres://localhost/db', REDIS_URL: 'redis://localhost:6379' };

describe('worker metrics and tracing settings', () => {
  it('are off by default', () => {
    const env = loadWorkerEnv(base);
    expect(env.LOOPLANE_WORKER_METRICS_PORT).toBeUndefined();
    expect(env.LOOPLANE_OTEL_ENDPOINT).toBeUndefined();
  });

  it('refuse a metrics port without a token (metrics are never public), and bad values', () => {
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_WORKER_METRICS_PORT: '9464' })).toThrow(
      'LOOPLANE_METRICS_TOKEN is required when LOOPLANE_WORKER_METRICS_PORT is set',
    );
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_WORKER_METRICS_PORT: '99999', LOOPLANE_METRICS_TOKEN: 'x'.repeat(20) })).toThrow(
      'LOOPLANE_WORKER_METRICS_PORT must be a port number',
    );
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_WORKER_METRICS_PORT: '9464', LOOPLANE_METRICS_TOKEN: 'short' })).toThrow(
      'LOOPLANE_METRICS_TOKEN must be at least 16 characters',
    );
    expect(() => loadWorkerEnv({ ...base, LOOPLANE_OTEL_ENDPOINT: 'collector:4318' })).toThrow('LOOPLANE_OTEL_ENDPOINT must be an http(s) URL');
    expect(loadWorkerEnv({ ...base, LOOPLANE_WORKER_METRICS_PORT: '9464', LOOPLANE_METRICS_TOKEN: 'x'.repeat(20) }).LOOPLANE_WORKER_METRICS_PORT).toBe(9464);
  });

  it('bind the metrics listener to this machine only unless HOST opens it', () => {
    expect(loadWorkerEnv(base).HOST).toBe('127.0.0.1');
    expect(loadWorkerEnv({ ...base, HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(() => loadWorkerEnv({ ...base, HOST: 'a b' })).toThrow('HOST must be a host name or an IP address');
  });
});
