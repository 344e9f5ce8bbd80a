// The peer's density process: N ReAct threads in ONE Node process, all started together, each 3
// model calls (two tool calls, then the answer) with the model thinking THINK_MS per call, against
// PostgresSaver (pool of 20) on DATABASE_URL, whose tables the parent already created. Run by
// bench/compare/density.ts as a child so its RSS is LangGraph's alone: it imports nothing of
// Looplane. Protocol: prints {"ready":…} once set up, waits for a line on stdin, runs, prints the
// result as one JSON line, and exits when stdin gives another line or closes.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import { buildReactGraph, FakeToolCallingModel, runThread } from './react-graph';

const n = Number(process.env.BENCH_N ?? 100);
const thinkMs = Number(process.env.BENCH_THINK_MS ?? 2000);
const TOOL_TURNS = 2; // two tool calls, then the answer: 3 model calls

/** Resident and peak resident memory of this process, MB. */
function memory(): { rss: number; peak: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BENCH_POOL ?? 20) });
const graph = buildReactGraph(new FakeToolCallingModel({ turns: TOOL_TURNS, thinkMs }), new PostgresSaver(pool));
// Warm up as Looplane's worker is warmed up (bench/runtime/density.ts): BENCH_WARMUP quick threads
// together first (at least one), so the measured burst runs on compiled code, as in a process in service.
const warmup = Math.max(1, Number(process.env.BENCH_WARMUP ?? 1));
const quick = buildReactGraph(new FakeToolCallingModel({ turns: TOOL_TURNS, thinkMs: 20 }), new PostgresSaver(pool));
await Promise.all(Array.from({ length: warmup }, () => runThread(quick, randomUUID(), TOOL_TURNS)));
const idle = memory();
console.log(JSON.stringify({ ready: true, idle: idle.rss }));
const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
await input.next(); // "go"

const cpuBefore = process.cpuUsage();
const started = performance.now();
let maxRss = 0;
const sampler = setInterval(() => (maxRss = Math.max(maxRss, memory().rss)), 100);
const results = await Promise.allSettled(Array.from({ length: n }, () => runThread(graph, randomUUID(), TOOL_TURNS)));
const wall = (performance.now() - started) / 1000;
clearInterval(sampler);
const cpu = process.cpuUsage(cpuBefore);
// A thread succeeded when it holds the question, two tool rounds (call + result) and the answer.
const succeeded = results.filter((r) => r.status === 'fulfilled' && r.value.length === 2 * TOOL_TURNS + 2).length;
const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
const checkpoints = Number(((await pool.query('SELECT count(*)::bigint AS n FROM checkpoints')).rows[0] as { n: string }).n);
console.log(
  JSON.stringify({
    n,
    wall,
    peak: memory().peak,
    maxRss: Math.max(maxRss, memory().rss),
    idle: idle.rss,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    succeeded,
    checkpoints,
    error: failure ? String(failure.reason) : null,
  }),
);
// Connections stay open until the parent has read Postgres's CPU: an ended backend's CPU leaves /proc.
await input.next();
await pool.end();
process.stdin.destroy();
