import { createModelForEndpoint } from '@looplane/models';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { testRedisUrl } from '../testing/test-runtime';
import { startMetricsServer, type MetricsServer } from './metrics-server';
import { WorkerMetrics } from './worker-metrics';

const TOKEN = 'metrics-token-for-tests-0123456789';
let metrics: WorkerMetrics | undefined;
// The suite's worker builds its model ports through the same instrumentation the worker process uses.
const s = setUpRuntimeSuite('metrics', {
  createModel: (endpoint, apiKey) => {
    const port = createModelForEndpoint(endpoint, apiKey);
    return metrics ? metrics.models.instrument(port, endpoint.id) : port;
  },
});
let redis: Redis;
let server: MetricsServer;
let url: string;

beforeAll(async () => {
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  metrics = new WorkerMetrics({ pool: s.worker.pool, redis, queuePrefix: s.prefix, workerId: s.worker.workerId });
  metrics.watchLoops(() => s.worker.runtime.activeSessions);
  server = await startMetricsServer({ port: 0, host: '127.0.0.1', token: TOKEN, render: () => metrics!.render(), logger: pino({ level: 'silent' }) });
  url = `http://127.0.0.1:${server.port}/metrics`;
});
afterAll(async () => {
  await server?.close();
  redis?.disconnect();
});

/** One sample's value from Prometheus text (the first line whose name and labels contain `match`). */
function sample(text: string, name: string, match = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(name) && (l[name.length] === '{' || l[name.length] === ' ') && l.includes(match));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('worker /metrics', () => {
  it('refuses a scrape without the bearer token, or with a wrong one (401)', async () => {
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong-token-of-the-same-size-000' } })).status).toBe(401);
    expect((await fetch(url.replace('/metrics', '/other'), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('serves every metric, and the values move after a run', async () => {
    const scrape = async () => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      return response.text();
    };
    const before = await scrape();
    for (const name of [
      'looplane_queue_depth',
      'looplane_runs',
      'looplane_runs_waiting',
      'looplane_active_loops',
      'looplane_worker_active_loops',
      'looplane_events_total',
      'looplane_approvals_pending',
      'looplane_approval_decision_seconds_count',
      'looplane_spend_micros_total',
      'looplane_model_call_seconds',
      'looplane_model_tokens_total',
      'looplane_sandbox_call_seconds',
    ]) {
      expect(before, name).toContain(`# TYPE ${name.replace(/_count$/, '')} `);
    }
    const eventsBefore = sample(before, 'looplane_events_total') ?? -1;

    const teamId = await createTestTeam(s.t.db);
    const agent = await createTestAgent(s.t.db, teamId, { script: [{ finish: 'done' }], inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 2_000_000 });
    const run = await createTestRun(s.t.db, agent);
    await s.client.enqueue({ ...run, reason: 'start' });
    expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');

    const after = await scrape();
    expect(sample(after, 'looplane_events_total')).toBeGreaterThan(eventsBefore);
    expect(sample(after, 'looplane_model_call_seconds_count', `endpoint="${agent.endpointId}"`)).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'looplane_model_tokens_total', `endpoint="${agent.endpointId}",direction="input"`)).toBeGreaterThan(0);
    expect(sample(after, 'looplane_spend_micros_total', `team="${teamId}"`)).toBeGreaterThan(0);
    expect(sample(after, 'looplane_runs', 'status="queued"')).toBe(0);
    expect(sample(after, 'looplane_approval_decision_seconds_count')).toBe(0);
  });
});
