import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { waitFor } from '../testing/test-runtime';
import { testToolSpecs } from '../testing/test-tools';
import { maybeStartTracing } from './tracing';

/** An OTLP/HTTP receiver in the test process: it keeps every JSON export request it is sent. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}
const received: OtlpSpan[] = [];
let receiver: Server;
let endpoint: string;

const s = setUpRuntimeSuite('tracing');
const logger = pino({ level: 'silent' });
const loaded = () => (globalThis as { __looplaneTracingLoaded?: boolean }).__looplaneTracingLoaded === true;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type'] === 'application/json') {
        const request = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const rs of request.resourceSpans) for (const ss of rs.scopeSpans) received.push(...ss.spans);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('run traces', () => {
  it('with no endpoint configured, tracing is off and its code is never loaded', async () => {
    expect(await maybeStartTracing({ env: {}, pool: s.worker.pool, logger })).toBeNull();
    expect(loaded()).toBe(false);
  });

  it('with an endpoint, a finished run exports one connected trace (run → turn → model / tool / approval) and records its id', async () => {
    const tracer = await maybeStartTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, pool: s.worker.pool, logger, intervalMs: 200 });
    expect(tracer).not.toBeNull();
    expect(loaded()).toBe(true);
    try {
      const teamId = await createTestTeam(s.t.db, {
        policy: { version: 1, default: 'allow', rules: [{ id: 'ask', match: { tool: 'echo' }, outcome: 'require_approval' }] },
      });
      const agent = await createTestAgent(s.t.db, teamId, { script: [{ calls: [{ tool: 'echo', args: { text: 'hi' } }] }, { finish: 'done' }] });
      const run = await createTestRun(s.t.db, agent, { config: { tools: testToolSpecs, toolLoading: 'eager' } });
      await s.client.enqueue({ ...run, reason: 'start' });
      const approval = await waitFor(
        () => s.t.db.approval.findFirst({ where: { runId: run.runId, status: 'pending' } }).then((a) => a ?? undefined),
        20_000,
        'the approval',
      );
      const approver = await s.t.db.user.create({ data: { email: `approver-${Date.now()}@example.test` } });
      await s.t.db.approval.update({ where: { id: approval.id }, data: { status: 'approved', decidedById: approver.id, decidedAt: new Date() } });
      await s.client.enqueue({ ...run, reason: 'resume' });
      expect((await waitForRun(s.t.db, run.runId)).status).toBe('succeeded');

      const row = await waitFor(
        () => s.t.db.run.findUniqueOrThrow({ where: { id: run.runId } }).then((r) => (r.traceId ? r : undefined)),
        10_000,
        'the trace id',
      );
      const spans = await waitFor(
        () => {
          const mine = received.filter((span) => span.traceId === row.traceId);
          return mine.some((span) => span.name === 'run') ? mine : undefined;
        },
        10_000,
        'the exported trace',
      );

      const byId = new Map(spans.map((span) => [span.spanId, span]));
      const roots = spans.filter((span) => !span.parentSpanId);
      expect(roots.map((span) => span.name)).toEqual(['run']);
      // Connected: every other span's parent is in the same trace.
      for (const span of spans.filter((x) => x.parentSpanId)) expect(byId.has(span.parentSpanId!), span.name).toBe(true);
      const parentName = (name: string) => byId.get(spans.find((span) => span.name === name)!.parentSpanId!)!.name;
      expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(['run', 'turn 0', 'turn 1', 'model call', 'tool echo', 'approval wait']));
      expect(parentName('turn 0')).toBe('run');
      expect(parentName('tool echo')).toBe('turn 0');
      expect(parentName('approval wait')).toBe('tool echo');
      expect(spans.filter((span) => span.name === 'model call').every((span) => byId.get(span.parentSpanId!)!.name.startsWith('turn'))).toBe(true);
      for (const span of spans) expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano), span.name).toBe(true);
    } finally {
      await tracer?.stop();
    }
  });
});
