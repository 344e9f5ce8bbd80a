// Density: N concurrent faux loops in ONE worker process, all started together; the model thinks
// 2 s per turn, 3 turns each (two tool calls, then the answer), so the ideal wall time is 6 s.
// The runs are started the way a user starts them, inside the timed window: N `POST /api/v1/runs`
// (Bearer token) at once to the API server (its own process), which commits each run and enqueues
// it. Measures wall time from the first request to the last run succeeding, and the worker's peak
// RSS. The worker is the real process (the production bundle plus the test tools, under plain
// node), against real Postgres and Redis; before the measured burst it serves a warm-up
// (`--warmup K` quick runs together, 200 by default, none with --quick), started the same way, as
// a worker in service has, so the burst runs on compiled code. `--timeline` prints when each event
// of the measured runs was made.
// Run: `npx tsx bench/runtime/density.ts [--quick] [--sizes 100,2000] [--warmup 200] [--timeline]`.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTeamFixture, issueToken } from '@looplane/api/testing';
import { createPgPool, type Db } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { createTestDatabase } from '@looplane/testkit';
import { buildWorker } from '../../apps/worker/build.mjs';
import { spawnWorker } from '../../apps/worker/src/testing/fault-harness';
import { testRedisUrl, uniquePrefix } from '../../apps/worker/src/testing/test-runtime';
import { testToolSpecs } from '../../apps/worker/src/testing/test-tools';
import { startApiServer } from '../sse/harness';

const quick = process.argv.includes('--quick');
const sizesArg = process.argv.find((_, i) => process.argv[i - 1] === '--sizes');
const sizes = sizesArg ? sizesArg.split(',').map(Number) : quick ? [100, 500] : [100, 500, 1000, 2000];
const timeline = process.argv.includes('--timeline');
const warmupArg = process.argv.find((_, i) => process.argv[i - 1] === '--warmup');
/** Runs the worker serves before the measured burst (quick ones), as a worker in service has: its hot paths compiled. */
export const WARMUP_RUNS = warmupArg ? Number(warmupArg) : quick ? 0 : 200;
const WARMUP_THINK_MS = 20;
const THINK_MS = 2000;
const IDEAL_S = (3 * THINK_MS) / 1000;
const logDir = mkdtempSync(join(tmpdir(), 'looplane-density-'));
/** The worker as production runs it: the bundle build.mjs makes, under plain node (built once). */
let bundle: Promise<string> | null = null;

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds used by every postgres server process (the database side of the work). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      total += cpuSeconds(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** Resident and peak resident memory of a process, MB. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Concurrent connections the burst of creates may use (a browser or CLI per user; the server's sockets bound it anyway). */
const CREATE_CONNECTIONS = 64;
// Loads the tool, then two echo calls and the answer: 3 model turns, two tool calls, as the peer's graph.
const SCRIPT: ScriptTurn[] = [
  {
    calls: [
      { tool: 'load_tools', args: { names: ['echo'] } },
      { tool: 'echo', args: { text: 'one' } },
    ],
  },
  { calls: [{ tool: 'echo', args: { text: 'two' } }] },
  { finish: 'done' },
];

/** A faux agent thinking `thinkMs` per turn whose template offers the echo tool. */
async function densityAgent(db: Db, teamId: string, thinkMs: number): Promise<string> {
  const agent = await createTestAgent(db, teamId, { script: SCRIPT, thinkMs });
  await db.agentTemplate.update({ where: { id: agent.agentId }, data: { tools: testToolSpecs.filter((t) => t.name === 'echo') } });
  return agent.agentId;
}

/** `count` runs of `agentId` created at once over HTTP; resolves with their ids once every create has answered. */
function createRuns(url: string, token: string, agentId: string, count: number, connections: Agent): Promise<string[]> {
  const one = (i: number) =>
    new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({ agentId, goal: `density run ${i}` });
      const req = request(
        `${url}/api/v1/runs`,
        {
          method: 'POST',
          agent: connections,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            res.statusCode === 201
              ? resolve((JSON.parse(text) as { runId: string }).runId)
              : reject(new Error(`POST /api/v1/runs answered ${res.statusCode}: ${text.slice(0, 200)}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return Promise.all(Array.from({ length: count }, (_, i) => one(i)));
}

/** One size: N runs in one worker process. Exported for the side-by-side comparison (bench/compare). */
export async function measure(n: number, warmup = WARMUP_RUNS) {
  const t = await createTestDatabase();
  const pool = createPgPool(t.url, { max: 2 });
  const prefix = uniquePrefix(`density-${n}`);
  const fx = await createTeamFixture(t.db);
  await t.db.team.update({ where: { id: fx.teamId }, data: { maxConcurrentRuns: Math.max(n, warmup) } });
  const token = (await issueToken(t.db, fx.teamId, fx.members.operator.id, 'operator')).secret;
  const agentId = await densityAgent(t.db, fx.teamId, THINK_MS);
  const warmAgentId = warmup > 0 ? await densityAgent(t.db, fx.teamId, WARMUP_THINK_MS) : null;

  bundle ??= buildWorker().then((b) => b['worker-with-test-tools']);
  const worker = spawnWorker(
    { DATABASE_URL: t.url, REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, WORKER_CONCURRENCY: String(n), DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '20' },
    join(logDir, `worker-${n}.log`),
    // e.g. BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the worker
    process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
    await bundle,
  );
  const api = await startApiServer(t.url, { poolSize: 16, queuePrefix: prefix });
  await worker.ready;
  const connections = new Agent({ keepAlive: true, maxSockets: CREATE_CONNECTIONS });
  // Every run of the database counted (an index-only count): the poll must cost Postgres next to nothing.
  const succeeded = async () => {
    const found = await pool.query({ text: `SELECT count(*)::int AS n FROM "Run" WHERE status = 'succeeded'` });
    return (found.rows[0] as { n: number }).n;
  };
  if (warmAgentId) {
    await createRuns(api.url, token, warmAgentId, warmup, connections);
    const until = performance.now() + 60_000;
    while ((await succeeded()) < warmup) {
      if (performance.now() > until) throw new Error(`the ${warmup} warm-up runs did not finish in 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const idle = memory(worker.pid);
  // Let the setup's writes (database copy, bulk inserts) settle so they do not land in the window.
  await pool.query({ text: 'CHECKPOINT' });
  await pool.query({ text: 'ANALYZE' });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const workerCpu = cpuSeconds(worker.pid);
  const pgCpu = postgresCpuSeconds();
  const apiCpu = await api.cpuMs();
  const started = performance.now();
  const startedAt = Date.now();
  // All started together, as N users (or one script) calling the API at once; the clock is running.
  let created: number | null = null;
  const creating = createRuns(api.url, token, agentId, n, connections).then((ids) => {
    created = (performance.now() - started) / 1000;
    return ids;
  });
  let failure: unknown = null;
  creating.catch((error: unknown) => (failure = error));
  let done = 0;
  let maxRss = 0;
  while (done < n) {
    if (failure) throw failure;
    // Polled often: the wall time is when the last run is seen succeeded.
    await new Promise((resolve) => setTimeout(resolve, 25));
    maxRss = Math.max(maxRss, memory(worker.pid).rss);
    done = (await succeeded()) - warmup;
    if (performance.now() - started > 180_000) throw new Error(`only ${done} of ${n} runs finished in 180 s`);
  }
  const wall = (performance.now() - started) / 1000;
  const { peak } = memory(worker.pid);
  const cpu = { worker: cpuSeconds(worker.pid) - workerCpu, postgres: postgresCpuSeconds() - pgCpu, api: ((await api.cpuMs()) - apiCpu) / 1000 };
  const measured = await creating;
  const events = await pool.query({ text: `SELECT count(*)::int AS n FROM "Event" WHERE "runId" = ANY($1)`, values: [measured] });
  // When the runs started and finished, relative to the first start: the shape of the delay.
  const spread = await pool.query({
    text: `SELECT (SELECT extract(epoch FROM max("createdAt") - min("createdAt")) FROM "Event" WHERE type = 'run.started' AND "runId" = ANY($1)) AS starts,
        extract(epoch FROM max("finishedAt") - min("startedAt")) AS last,
      (SELECT extract(epoch FROM percentile_cont(0.5) WITHIN GROUP (ORDER BY f."createdAt" - s."createdAt"))
        FROM "Event" s JOIN "Event" f ON f."runId" = s."runId" AND f.type = 'run.finished' WHERE s.type = 'run.started' AND s."runId" = ANY($1)) AS median
      FROM "Run" WHERE id = ANY($1)`,
    values: [measured],
  });
  if (timeline) await printTimeline(pool, startedAt, measured);
  const failed = await pool.query({ text: `SELECT count(*)::int AS n FROM "Run" WHERE status <> 'succeeded' AND id = ANY($1)`, values: [measured] });

  worker.child.kill('SIGTERM');
  await worker.exited;
  await api.stop();
  connections.destroy();
  await pool.end();
  await t.drop();
  const shape = spread.rows[0] as { starts: string; last: string; median: string };
  return {
    n,
    wall,
    created: created ?? wall,
    ratio: wall / IDEAL_S,
    peak,
    idle: idle.rss,
    maxRss,
    cpu,
    shape: { starts: Number(shape.starts), last: Number(shape.last), median: Number(shape.median) },
    events: (events.rows[0] as { n: number }).n,
    failed: (failed.rows[0] as { n: number }).n,
  };
}

/** Each event's time since the enqueue, per seq and type (percentiles): where the delay comes from. */
async function printTimeline(pool: ReturnType<typeof createPgPool>, startedAt: number, runIds: string[]) {
  const rows = await pool.query({
    text: `SELECT seq, type, percentile_cont(ARRAY[0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) WITHIN GROUP (ORDER BY extract(epoch FROM "createdAt") * 1000 - $1) AS p,
        avg(octet_length(payload::text))::int AS bytes
      FROM "Event" WHERE "runId" = ANY($2) GROUP BY seq, type ORDER BY seq, type`,
    values: [startedAt, runIds],
  });
  console.log('   seq  type                      first ms    p10 ms    p25 ms    p50 ms    p75 ms    p90 ms   last ms   payload bytes');
  for (const row of rows.rows as { seq: number; type: string; p: number[]; bytes: number }[]) {
    console.log(
      `${String(row.seq).padStart(6)}  ${row.type.padEnd(24)} ${row.p.map((v) => v.toFixed(0).padStart(9)).join(' ')}   ${String(row.bytes).padStart(13)}`,
    );
  }
}

async function main() {
  console.log(
    `Density: N faux loops in one worker process, model thinking ${THINK_MS} ms per turn, 3 turns each (ideal ${IDEAL_S} s), after a warm-up of ${WARMUP_RUNS} quick runs\n`,
  );
  console.log(
    '    N   wall s   created s   x ideal   peak RSS MB   idle RSS MB   events   events/s   worker CPU s   API CPU s   postgres CPU s   starts spread s   run median s   not succeeded',
  );
  for (const n of sizes) {
    const r = await measure(n);
    console.log(
      `${String(r.n).padStart(5)}   ${r.wall.toFixed(2).padStart(6)}   ${r.created.toFixed(2).padStart(9)}   ${r.ratio.toFixed(2).padStart(7)}   ${r.peak.toFixed(0).padStart(11)}   ${r.idle.toFixed(0).padStart(11)}   ${String(r.events).padStart(6)}   ${(r.events / r.wall).toFixed(0).padStart(8)}   ${r.cpu.worker.toFixed(1).padStart(12)}   ${r.cpu.api.toFixed(1).padStart(9)}   ${r.cpu.postgres.toFixed(1).padStart(14)}   ${r.shape.starts.toFixed(2).padStart(15)}   ${r.shape.median.toFixed(2).padStart(12)}   ${String(r.failed).padStart(13)}`,
    );
  }
}

// Run as a script; imported (bench/compare), it only exports the measurement.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
