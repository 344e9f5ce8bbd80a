// SSE latency, append → subscriber: a writer appends events to 100 runs at 2,000 events/s in total
// (as the worker does: group commit of the appends, then one Redis PUBLISH per event), while 100 subscribers
// follow the runs over HTTP through the real SSE handler (API server in its own process).
// Run: `npx tsx bench/sse/sse-latency.ts [--quick] [--rate N] [--runs N] [--seconds N] [--per-event] [--writers N]`.
// What it measures is described in bench/sse/README.md.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { callerAs, createTestLive, testRedisUrl } from '@looplane/api/testing';
import { fmt, percentile, startBench } from './harness';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = args.includes('--quick');
const RUNS = arg('runs', 100);
const RATE = arg('rate', 2000);
const SECONDS = arg('seconds', quick ? 5 : 20);
// Group commit like the worker (default; --writers = statements in flight, default 2), or
// --per-event: one committed statement per event over --writers connections (default 16).
const PER_EVENT = args.includes('--per-event');
const WRITERS = arg('writers', PER_EVENT ? 16 : 2);

const bench = await startBench({ poolSize: 10 });
const setupLive = await createTestLive();
// Setup creates the runs as fast as it can: no run-start limits.
const api = await callerAs({ db: bench.db.db, dispatch: setupLive.dispatch, runLimits: { perMinute: 0, maxQueued: 0 } }, { bearer: bench.token });
const runs: Array<{ id: string; sessionId: string }> = [];
for (let i = 0; i < RUNS; i++) {
  const { runId } = await api.runs.create({ teamId: bench.teamId, agentId: bench.agentId, goal: `bench run ${i}` });
  const run = await bench.db.db.run.findUniqueOrThrow({ where: { id: runId } });
  runs.push({ id: runId, sessionId: run.mainSessionId! });
}
await setupLive.close();

// Subscribers: one SSE connection per run, each checking its numbers are 1, 2, 3… (no gap, no duplicate).
const latencies: number[] = [];
/** Receipt wall time per run, indexed by event number (joined with the writer's commit times). */
const receivedAt = new Map<string, number[]>(runs.map((run) => [run.id, []]));
let received = 0;
let outOfOrder = 0;
const sockets: Array<() => void> = [];
await Promise.all(
  runs.map(
    (run) =>
      new Promise<void>((resolve, reject) => {
        let expected = 1;
        let buffer = '';
        const req = request(`${bench.server.url}/api/runs/${run.id}/stream`, { headers: { authorization: `Bearer ${bench.token}` } }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
          res.setEncoding('utf8');
          resolve();
          res.on('data', (chunk: string) => {
            const now = performance.timeOrigin + performance.now();
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const data = block.split('\n').find((line) => line.startsWith('data: '));
              if (!data) continue;
              const event = JSON.parse(data.slice(6)) as { eventNo: number; payload: { t: number } };
              if (event.eventNo !== expected) outOfOrder++;
              expected = event.eventNo + 1;
              received++;
              latencies.push(now - event.payload.t);
              receivedAt.get(run.id)![event.eventNo] = now;
            }
          });
        });
        req.on('error', reject);
        req.end();
        sockets.push(() => req.destroy());
      }),
  ),
);

// The writer runs in a process of its own, like the worker; it reports its totals when done.
const cpuBefore = await bench.serverCpuMs();
const commitsFile = join(tmpdir(), `looplane-sse-commits-${process.pid}.json`);
const writer = spawn(process.execPath, ['--import', 'tsx', new URL('./writer.ts', import.meta.url).pathname], {
  env: {
    ...process.env,
    DATABASE_URL: bench.db.url,
    REDIS_URL: testRedisUrl,
    BENCH_RUNS: JSON.stringify(runs),
    BENCH_RATE: String(RATE),
    BENCH_SECONDS: String(SECONDS),
    BENCH_WRITERS: String(WRITERS),
    BENCH_GROUP: PER_EVENT ? '0' : '1',
    BENCH_COMMITS_FILE: commitsFile,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const writerLine = await new Promise<string>((resolve, reject) => {
  createInterface({ input: writer.stdout! }).once('line', resolve);
  writer.once('exit', (code) => (code ? reject(new Error(`writer exited with ${code}`)) : undefined));
});
const written = JSON.parse(writerLine) as { sent: number; achievedRate: number; maxBacklog: number; appendP50: number; appendP99: number; cpuMs: number };
const deadline = Date.now() + 10_000;
while (received < written.sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

const serverCpuMs = (await bench.serverCpuMs()) - cpuBefore;
for (const close of sockets) close();
await bench.close();
const loadAverage = (await import('node:os')).loadavg()[0] ?? 0;

latencies.sort((a, b) => a - b);
// Commit → subscriber (the benchmark issue's definition): receipt − the time the writer saw the commit.
const committedAt = JSON.parse(readFileSync(commitsFile, 'utf8')) as Record<string, Array<number | null>>;
rmSync(commitsFile, { force: true });
const fromCommit: number[] = [];
for (const [runId, times] of receivedAt) {
  times.forEach((at, eventNo) => {
    const committed = committedAt[runId]?.[eventNo];
    if (typeof committed === 'number') fromCommit.push(at - committed);
  });
}
fromCommit.sort((a, b) => a - b);
const { sent } = written;
const result = {
  runs: RUNS,
  subscribers: RUNS,
  targetRate: RATE,
  writerMode: PER_EVENT ? 'per-event' : 'group',
  achievedRate: written.achievedRate,
  sent,
  received,
  outOfOrder,
  writerMaxBacklog: written.maxBacklog,
  appendCommitAndPublish: { p50: written.appendP50, p99: written.appendP99 },
  commitToSubscriber: { p50: percentile(fromCommit, 50), p90: percentile(fromCommit, 90), p99: percentile(fromCommit, 99), max: fromCommit.at(-1) },
  appendToSubscriber: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), max: latencies.at(-1) },
  /** CPU the SSE server spent per delivered event while the writer ran (reads, frames, writes), and the writer per append. */
  serverCpuMsPerEvent: serverCpuMs / Math.max(1, received),
  writerCpuMsPerAppend: written.cpuMs / Math.max(1, sent),
  loadAverage,
};
process.stdout.write(
  [
    `SSE latency: ${RUNS} runs, ${RUNS} subscribers, target ${RATE} events/s for ${SECONDS} s, ${PER_EVENT ? `one commit per event (${WRITERS} connections)` : `group commit (${WRITERS} statements in flight)`}`,
    `  appended ${sent} events at ${result.achievedRate}/s; received ${received}; gaps or duplicates: ${outOfOrder}`,
    `  commit → subscriber: p50 ${fmt(result.commitToSubscriber.p50)}, p90 ${fmt(result.commitToSubscriber.p90)}, p99 ${fmt(result.commitToSubscriber.p99)}, max ${fmt(result.commitToSubscriber.max ?? NaN)}`,
    `  append → subscriber: p50 ${fmt(result.appendToSubscriber.p50)}, p90 ${fmt(result.appendToSubscriber.p90)}, p99 ${fmt(result.appendToSubscriber.p99)}, max ${fmt(result.appendToSubscriber.max ?? NaN)}`,
    `  the append itself (commit + publish): p50 ${fmt(written.appendP50)}, p99 ${fmt(written.appendP99)}`,
    `  CPU: SSE server ${result.serverCpuMsPerEvent.toFixed(3)} ms per delivered event; writer ${result.writerCpuMsPerAppend.toFixed(3)} ms per append; load average ${loadAverage.toFixed(1)} on ${(await import('node:os')).cpus().length} cores`,
    `  ${JSON.stringify(result)}`,
    '',
  ].join('\n'),
);
process.exit(received === sent && outOfOrder === 0 ? 0 : 1);
