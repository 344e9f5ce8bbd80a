// The "worker" of the SSE latency benchmark, in a process of its own: appends events to the given
// runs at a fixed total rate, as the worker does: group commit (appends that become due while
// `BENCH_WRITERS` statements are in flight go together into the next statement, one commit for
// all, like the worker's FlushBatcher), each append bumping its run's event number and inserting
// the event; after the commit, one PUBLISH per event. BENCH_GROUP=0 commits every event alone
// instead (one statement per event, BENCH_WRITERS connections). Each payload carries `t`, the wall
// time the append was submitted; the wall time each commit was confirmed goes to BENCH_COMMITS_FILE
// (JSON: run id → array indexed by event number). Prints one JSON line of totals when done.
// Env: DATABASE_URL, REDIS_URL, BENCH_RUNS (JSON [{id, sessionId}]), BENCH_RATE, BENCH_SECONDS, BENCH_WRITERS, BENCH_GROUP, BENCH_COMMITS_FILE.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Redis } from 'ioredis';
import { percentile } from './harness';

const runs = JSON.parse(process.env.BENCH_RUNS ?? '[]') as Array<{ id: string; sessionId: string }>;
const rate = Number(process.env.BENCH_RATE);
const seconds = Number(process.env.BENCH_SECONDS);
const group = process.env.BENCH_GROUP !== '0';
const writers = Number(process.env.BENCH_WRITERS ?? (group ? 2 : 16));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: writers });
const publisher = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const APPEND = `WITH r AS (UPDATE "Run" SET "lastEventNo" = "lastEventNo" + 1 WHERE id = $1 RETURNING "lastEventNo")
  INSERT INTO "Event" ("runId", "sessionId", seq, "eventNo", type, payload)
  SELECT $1, $2, r."lastEventNo", r."lastEventNo", 'message.added', $3::jsonb FROM r RETURNING "eventNo"`;
// Group commit: many runs' appends in one statement (a run appears once: its appends are sequential).
const APPEND_MANY = `WITH input AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(run text, session text, payload jsonb)),
  r AS (UPDATE "Run" SET "lastEventNo" = "lastEventNo" + 1 FROM input WHERE "Run".id = input.run RETURNING "Run".id, "lastEventNo")
  INSERT INTO "Event" ("runId", "sessionId", seq, "eventNo", type, payload)
  SELECT i.run, i.session, r."lastEventNo", r."lastEventNo", 'message.added', i.payload FROM input i JOIN r ON r.id = i.run
  RETURNING "runId", "eventNo"`;
const filler = 'x'.repeat(200);
const appendMs: number[] = [];
/** Wall time each append's commit was confirmed, per run, indexed by event number (for commit → subscriber). */
const committedAt = new Map<string, number[]>(runs.map((run) => [run.id, []]));
const now = () => performance.timeOrigin + performance.now();
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
  committedAt.get(run.id)![eventNo] = now();
  await publisher.publish(`looplane:run:${run.id}`, JSON.stringify({ runId: run.id, sessionId: run.sessionId, eventNo, type: 'message.added' }));
  appendMs.push(performance.now() - start);
}

interface Due {
  run: { id: string; sessionId: string };
  start: number;
  done: () => void;
}
const due: Due[] = [];
let statements = 0;

/** Starts a statement for everything due while fewer than `writers` are in flight. */
function pump() {
  while (statements < writers && due.length > 0) {
    const batch = due.splice(0, 256);
    statements++;
    void writeBatch(batch).finally(() => {
      statements--;
      pump();
    });
  }
}

async function writeBatch(batch: Due[]) {
  const input = batch.map((d) => ({ run: d.run.id, session: d.run.sessionId, payload: { role: 'user', text: filler, t: performance.timeOrigin + d.start } }));
  const result = await pool.query<{ runId: string; eventNo: string }>({ name: 'append_many', text: APPEND_MANY, values: [JSON.stringify(input)] });
  const numbers = new Map(result.rows.map((row) => [row.runId, Number(row.eventNo)]));
  const at = now();
  for (const [runId, eventNo] of numbers) committedAt.get(runId)![eventNo] = at;
  // One publish per event, as the worker does; ioredis pipelines them on its connection.
  await Promise.all(batch.map((d) => publisher.publish(`looplane:run:${d.run.id}`, JSON.stringify({ runId: d.run.id, sessionId: d.run.sessionId, eventNo: numbers.get(d.run.id)!, type: 'message.added' }))));
  for (const d of batch) {
    appendMs.push(performance.now() - d.start);
    d.done();
  }
}

function appendGrouped(run: { id: string; sessionId: string }): Promise<void> {
  return new Promise((resolve) => {
    due.push({ run, start: performance.now(), done: resolve });
    pump();
  });
}

// Warm the pool and the prepared statement.
await Promise.all(Array.from({ length: writers }, () => pool.query('SELECT 1')));
const cpuAtStart = process.cpuUsage();
const started = performance.now();
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const dueNow = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    maxBacklog = Math.max(maxBacklog, dueNow - sent);
    const inFlightLimit = group ? runs.length : writers;
    for (let tries = 0; sent < dueNow && inFlight < inFlightLimit && tries < runs.length; tries++) {
      // Appends of one run are sequential (one lease holder per session); runs go in parallel.
      const run = runs[cursor++ % runs.length]!;
      if (busy.has(run.id)) continue;
      sent++;
      inFlight++;
      busy.add(run.id);
      void (group ? appendGrouped(run) : appendOne(run)).finally(() => {
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
if (process.env.BENCH_COMMITS_FILE) writeFileSync(process.env.BENCH_COMMITS_FILE, JSON.stringify(Object.fromEntries(committedAt)));
const cpu = process.cpuUsage(cpuAtStart);
process.stdout.write(
  `${JSON.stringify({ sent, achievedRate: Math.round(sent / elapsed), maxBacklog, appendP50: percentile(appendMs, 50), appendP99: percentile(appendMs, 99), cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
await pool.end();
publisher.disconnect();
