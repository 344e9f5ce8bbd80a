// The "worker" of the SSE latency benchmark, in a process of its own: appends events to the given
// runs at a fixed total rate, as the worker does (one committed statement per event: bump the run's
// event number and insert the event; then PUBLISH the wake-up). Each payload carries `t`, the wall
// time the append started. Prints one JSON line of totals when done.
// Env: DATABASE_URL, REDIS_URL, BENCH_RUNS (JSON [{id, sessionId}]), BENCH_RATE, BENCH_SECONDS, BENCH_WRITERS.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Redis } from 'ioredis';
import { percentile } from './harness';

const runs = JSON.parse(process.env.BENCH_RUNS ?? '[]') as Array<{ id: string; sessionId: string }>;
const rate = Number(process.env.BENCH_RATE);
const seconds = Number(process.env.BENCH_SECONDS);
const writers = Number(process.env.BENCH_WRITERS ?? 16);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: writers });
const publisher = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const APPEND = `WITH r AS (UPDATE "Run" SET "lastEventNo" = "lastEventNo" + 1 WHERE id = $1 RETURNING "lastEventNo")
  INSERT INTO "Event" ("runId", "sessionId", seq, "eventNo", type, payload)
  SELECT $1, $2, r."lastEventNo", r."lastEventNo", 'message.added', $3::jsonb FROM r RETURNING "eventNo"`;
const filler = 'x'.repeat(200);
const appendMs: number[] = [];
let sent = 0;
let inFlight = 0;
let cursor = 0;
let maxBacklog = 0;
const busy = new Set<string>();
const total = rate * seconds;

async function appendOne(run: { id: string; sessionId: string }) {
  const start = performance.now();
  const t = performance.timeOrigin + start;
  const result = await pool.query<{ eventNo: string }>({ name: 'append', text: APPEND, values: [run.id, run.sessionId, JSON.stringify({ role: 'user', text: filler, t })] });
  const eventNo = Number(result.rows[0]!.eventNo);
  await publisher.publish(`looplane:run:${run.id}`, JSON.stringify({ runId: run.id, sessionId: run.sessionId, eventNo, type: 'message.added' }));
  appendMs.push(performance.now() - start);
}

// Warm the pool and the prepared statement.
await Promise.all(Array.from({ length: writers }, () => pool.query('SELECT 1')));
const cpuAtStart = process.cpuUsage();
const started = performance.now();
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    maxBacklog = Math.max(maxBacklog, due - sent);
    for (let tries = 0; sent < due && inFlight < writers && tries < runs.length; tries++) {
      // Appends of one run are sequential (one lease holder per session); runs go in parallel.
      const run = runs[cursor++ % runs.length]!;
      if (busy.has(run.id)) continue;
      sent++;
      inFlight++;
      busy.add(run.id);
      void appendOne(run).finally(() => {
        inFlight--;
        busy.delete(run.id);
      });
    }
    if (sent >= total && inFlight === 0) {
      clearInterval(tick);
      resolve();
    }
  }, 1);
});
const elapsed = (performance.now() - started) / 1000;
appendMs.sort((a, b) => a - b);
const cpu = process.cpuUsage(cpuAtStart);
process.stdout.write(
  `${JSON.stringify({ sent, achievedRate: Math.round(sent / elapsed), maxBacklog, appendP50: percentile(appendMs, 50), appendP99: percentile(appendMs, 99), cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
await pool.end();
publisher.disconnect();
