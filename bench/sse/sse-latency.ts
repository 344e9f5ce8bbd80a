// SSE latency, the real worker's commit → a browser-style EventSource client: R runs of a faux
// agent (one turn every --think ms: a short streamed answer and an echo call), executed by the real
// worker process (the production bundle plus the test tools) while R `EventSource` clients (the
// WHATWG client of the `eventsource` package, reading the stream as a browser does) follow them
// through the API server's real SSE handler (its own process). The runs are created over
// `POST /api/v1/runs` and subscribed to before the worker starts, so every event is seen live.
// Run: `npx tsx bench/sse/sse-latency.ts [--quick] [--runs N] [--think MS] [--seconds N] [--repeat N]`.
// What it measures is described in bench/sse/README.md.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EventSource } from 'eventsource';
import { Redis } from 'ioredis';
import { createTeamFixture, issueToken } from '@looplane/api/testing';
import { createTestAgent } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { createTestDatabase } from '@looplane/testkit';
import { buildWorker } from '../../apps/worker/build.mjs';
import { spawnWorker } from '../../apps/worker/src/testing/fault-harness';
import { testRedisUrl, uniquePrefix } from '../../apps/worker/src/testing/test-runtime';
import { testToolSpecs } from '../../apps/worker/src/testing/test-tools';
import { stat, type Stat } from '../compare/stats';
import type { FigureInput } from '../report/schema';
import { fmt, percentile, startApiServer } from './harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = args.includes('--quick');
const RUNS = arg('runs', 100);
const THINK_MS = arg('think', 250);
const SECONDS = arg('seconds', quick ? 5 : 20);
const REPEAT = arg('repeat', quick ? 1 : 5);
const TURNS = Math.max(2, Math.round((SECONDS * 1000) / THINK_MS));
const logDir = mkdtempSync(join(tmpdir(), 'looplane-sse-'));
const now = () => performance.timeOrigin + performance.now();

// Turn 1 loads the tool; every turn streams a short answer and makes one echo call; then the answer.
const loadEcho: NonNullable<ScriptTurn['calls']> = [{ tool: 'load_tools', args: { names: ['echo'] } }];
const script: ScriptTurn[] = [
  ...Array.from(
    { length: TURNS },
    (_, i): ScriptTurn => ({ say: `Step ${i + 1}: checking.`, calls: [...(i === 0 ? loadEcho : []), { tool: 'echo', args: { text: `step ${i + 1}` } }] }),
  ),
  { finish: 'done' },
];

interface Repetition {
  events: number;
  eventsPerSecond: number;
  gapsOrDuplicates: number;
  /** The worker's commit notice (its Redis PUBLISH, as a subscriber of the same channel gets it) → the EventSource message. */
  commitToClient: { p50: number; p90: number; p99: number; max: number };
  /** The event's time (made by the engine, before the group commit) → the EventSource message. */
  eventToClient: { p50: number; p90: number; p99: number; max: number };
  serverCpuMsPerEvent: number;
}

async function repetition(bundle: string, index: number): Promise<Repetition> {
  const t = await createTestDatabase();
  const prefix = uniquePrefix(`sse-${index}`);
  const fx = await createTeamFixture(t.db);
  await t.db.team.update({ where: { id: fx.teamId }, data: { maxConcurrentRuns: RUNS } });
  const token = (await issueToken(t.db, fx.teamId, fx.members.operator.id, 'operator')).secret;
  const agent = await createTestAgent(t.db, fx.teamId, { script, thinkMs: THINK_MS });
  await t.db.agentTemplate.update({ where: { id: agent.agentId }, data: { tools: testToolSpecs.filter((s) => s.name === 'echo') } });
  const api = await startApiServer(t.url, { poolSize: 10, queuePrefix: prefix });

  const runIds: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const response = await fetch(`${api.url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agentId: agent.agentId, goal: `sse run ${i}` }),
    });
    if (response.status !== 201) throw new Error(`POST /api/v1/runs answered ${response.status}: ${await response.text()}`);
    runIds.push(((await response.json()) as { runId: string }).runId);
  }

  // The commit notices: the worker publishes each event's number after its commit.
  const notices = new Map<string, number>();
  const redis = new Redis(testRedisUrl);
  await redis.psubscribe('looplane:run:*');
  redis.on('pmessage', (_pattern, _channel, raw: string) => {
    const m = JSON.parse(raw) as { runId: string; eventNo: number };
    notices.set(`${m.runId}:${m.eventNo}`, now());
  });

  const fromCommit: number[] = [];
  const fromEvent: number[] = [];
  let received = 0;
  let gaps = 0;
  const finished = new Set<string>();
  const sources: EventSource[] = [];
  // Fetch with the token, as the CLI or any API client sends it (the dashboard sends its cookie).
  const authorized: typeof fetch = (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } });
  await Promise.all(
    runIds.map(
      (runId) =>
        new Promise<void>((resolve, reject) => {
          let expected = 1;
          const source = new EventSource(`${api.url}/api/runs/${runId}/stream`, { fetch: authorized });
          sources.push(source);
          source.onopen = () => resolve();
          source.onerror = (error) =>
            source.readyState === EventSource.CLOSED ? reject(new Error(`stream of ${runId} closed: ${error.message ?? ''}`)) : undefined;
          source.onmessage = (message) => {
            const at = now();
            const event = JSON.parse(message.data) as { eventNo: number; type: string; createdAt: string };
            if (event.eventNo !== expected) gaps++;
            expected = event.eventNo + 1;
            received++;
            const notice = notices.get(`${runId}:${event.eventNo}`);
            if (notice !== undefined) fromCommit.push(at - notice);
            fromEvent.push(at - Date.parse(event.createdAt));
            if (event.type === 'run.finished') finished.add(runId);
          };
        }),
    ),
  );

  const cpuBefore = await api.cpuMs();
  const worker = spawnWorker(
    { DATABASE_URL: t.url, REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: String(RUNS) },
    join(logDir, `worker-${index}.log`),
    [],
    bundle,
  );
  await worker.ready;
  const started = performance.now();
  const deadline = started + (SECONDS + 60) * 1000;
  while (finished.size < RUNS) {
    if (performance.now() > deadline) throw new Error(`only ${finished.size} of ${RUNS} runs finished`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const elapsed = (performance.now() - started) / 1000;
  const serverCpuMs = (await api.cpuMs()) - cpuBefore;
  for (const source of sources) source.close();
  worker.child.kill('SIGTERM');
  await worker.exited;
  await redis.quit();
  await api.stop();
  const stored = await t.db.event.count();
  await t.drop();
  if (stored !== received) gaps += Math.abs(stored - received);

  const summary = (values: number[]) => {
    const sorted = values.sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
  };
  return {
    events: received,
    eventsPerSecond: Math.round(received / elapsed),
    gapsOrDuplicates: gaps,
    commitToClient: summary(fromCommit),
    eventToClient: summary(fromEvent),
    serverCpuMsPerEvent: serverCpuMs / Math.max(1, received),
  };
}

const bundle = (await buildWorker())['worker-with-test-tools'];
const repetitions: Repetition[] = [];
console.log(
  `SSE latency: ${RUNS} runs on the real worker, one turn every ${THINK_MS} ms (${TURNS} turns each), ${RUNS} EventSource clients; ${REPEAT} repetition(s)`,
);
for (let i = 0; i < REPEAT; i++) {
  const r = await repetition(bundle, i);
  repetitions.push(r);
  console.log(
    `  #${i + 1}: ${r.events} events (${r.eventsPerSecond}/s), gaps or duplicates ${r.gapsOrDuplicates}; commit → client p50 ${fmt(r.commitToClient.p50)}, p99 ${fmt(r.commitToClient.p99)}; event → client p50 ${fmt(r.eventToClient.p50)}, p99 ${fmt(r.eventToClient.p99)}; server ${r.serverCpuMsPerEvent.toFixed(3)} ms CPU per event`,
  );
}
const over = (pick: (r: Repetition) => number): Stat => stat(repetitions.map(pick));
const figures: FigureInput[] = [
  {
    key: 'sse.commit-to-client-p99',
    label: `commit → EventSource client, p99 (${RUNS} runs on the real worker, ${RUNS} clients)`,
    unit: 'ms',
    looplane: over((r) => r.commitToClient.p99),
    goals: [{ text: 'p99 ≤ 50 ms', met: over((r) => r.commitToClient.p99).median <= 50 }],
  },
  { key: 'sse.commit-to-client-p50', label: 'commit → EventSource client, p50', unit: 'ms', looplane: over((r) => r.commitToClient.p50) },
  {
    key: 'sse.event-to-client-p99',
    label: 'event made → EventSource client, p99 (the session flush and commit included)',
    unit: 'ms',
    looplane: over((r) => r.eventToClient.p99),
  },
  { key: 'sse.events-per-second', label: 'events delivered per second', unit: 'events/s', looplane: over((r) => r.eventsPerSecond) },
];
const result = {
  bench: 'sse-latency',
  figures,
  runs: RUNS,
  thinkMs: THINK_MS,
  turnsPerRun: TURNS,
  repeat: REPEAT,
  eventsPerSecond: over((r) => r.eventsPerSecond),
  commitToClientP50: over((r) => r.commitToClient.p50),
  commitToClientP99: over((r) => r.commitToClient.p99),
  eventToClientP50: over((r) => r.eventToClient.p50),
  eventToClientP99: over((r) => r.eventToClient.p99),
  serverCpuMsPerEvent: over((r) => r.serverCpuMsPerEvent),
  gapsOrDuplicates: repetitions.reduce((a, r) => a + r.gapsOrDuplicates, 0),
  repetitions,
  loadAverage: (await import('node:os')).loadavg()[0] ?? 0,
};
console.log(
  `  medians: commit → client p99 ${fmt(result.commitToClientP99.median)} (${fmt(result.commitToClientP99.min)}–${fmt(result.commitToClientP99.max)}); event → client p99 ${fmt(result.eventToClientP99.median)}`,
);
console.log(JSON.stringify(result));
process.exit(result.gapsOrDuplicates === 0 ? 0 : 1);
