// Density, side by side: N concurrent agents, each 3 turns with the model thinking 2,000 ms per
// turn (ideal wall time 6 s), all started together, each system in a process of its own on the same
// Postgres: Looplane's worker (bench/runtime/density.ts: the real worker process) and LangGraph's
// ReAct graph with PostgresSaver (bench/langgraph/density-child.ts). Reports wall time vs the ideal,
// peak RSS, RSS per live agent, CPU of the process and of Postgres. Each process first serves the
// same warm-up (`--warmup K` quick agents together, 200 by default), as a process in service has.
// Run: `npx tsx bench/compare/density.ts [--quick] [--sizes 100,500,1000,2000] [--warmup 200]`. See bench/README.md.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { postgresSaver } from '../langgraph/checkpointers';
import { createBenchDatabase } from '../langgraph/database';
import { WARMUP_RUNS, measure as measureLooplane, postgresCpuSeconds } from '../runtime/density';
import { option, round, versus } from './stats';

const THINK_MS = 2000;
const IDEAL_S = (3 * THINK_MS) / 1000;

export interface DensityRow {
  system: 'looplane' | 'langgraph';
  n: number;
  wall: number;
  /** Peak RSS of the system's process (VmHWM), MB. */
  peak: number;
  /** RSS once ready, before the agents start, MB. */
  idle: number;
  cpu: { process: number; postgres: number };
  /** Agents that did not finish all 3 turns. */
  failed: number;
}

/** N LangGraph threads in a child process of their own. */
export async function measureLangGraphDensity(n: number, thinkMs = THINK_MS): Promise<DensityRow> {
  const database = await createBenchDatabase();
  // Tables made here, as a deployed app has them; the child only runs the graph.
  const setupPool = new pg.Pool({ connectionString: database.url, max: 5 });
  await postgresSaver(setupPool);
  await setupPool.end();
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('../langgraph/density-child.ts', import.meta.url).pathname], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, BENCH_N: String(n), BENCH_THINK_MS: String(thinkMs), BENCH_POOL: process.env.BENCH_POOL ?? '20', BENCH_WARMUP: String(WARMUP_RUNS) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`LangGraph density process exited with ${code}`)));
      lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>));
    });
  const ready = await next();
  const pgCpu = postgresCpuSeconds();
  child.stdin!.write('go\n');
  const r = (await next()) as { wall: number; peak: number; idle: number; cpuSeconds: number; succeeded: number; error: string | null };
  const postgres = postgresCpuSeconds() - pgCpu;
  child.stdin!.end('done\n');
  await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
  await database.drop();
  if (r.error) console.error(`LangGraph, N=${n}: ${n - r.succeeded} threads failed; first error: ${r.error}`);
  return { system: 'langgraph', n, wall: r.wall, peak: r.peak, idle: Number(ready.idle), cpu: { process: r.cpuSeconds, postgres }, failed: n - r.succeeded };
}

/** N Looplane runs in one worker process (bench/runtime/density.ts). */
export async function measureLooplaneDensity(n: number): Promise<DensityRow> {
  const r = await measureLooplane(n);
  return { system: 'looplane', n, wall: r.wall, peak: r.peak, idle: r.idle, cpu: { process: r.cpu.worker, postgres: r.cpu.postgres }, failed: r.failed };
}

const perAgentKb = (r: DensityRow) => ((r.peak - r.idle) * 1024) / r.n;

function line(r: DensityRow): string {
  const label = r.system === 'looplane' ? 'Looplane (worker)' : 'LangGraph + PostgresSaver';
  return `${String(r.n).padStart(5)}  ${label.padEnd(26)} ${r.wall.toFixed(2).padStart(7)}  ${(r.wall / IDEAL_S).toFixed(2).padStart(7)}  ${r.peak.toFixed(0).padStart(11)}  ${r.idle.toFixed(0).padStart(11)}  ${perAgentKb(r).toFixed(0).padStart(14)}  ${r.cpu.process.toFixed(1).padStart(9)}  ${((r.cpu.process * 1000) / r.n).toFixed(1).padStart(12)}  ${r.cpu.postgres.toFixed(1).padStart(10)}  ${String(r.failed).padStart(6)}`;
}

async function main() {
  const sizes = (option('sizes') ?? (process.argv.includes('--quick') ? '100,500' : '100,500,1000,2000')).split(',').map(Number);
  console.log(`Density, side by side: N agents started together, 3 turns each, model thinking ${THINK_MS} ms per turn (ideal ${IDEAL_S} s); each system in its own process, after a warm-up of ${WARMUP_RUNS} quick agents\n`);
  console.log('    N  system                        wall s  x ideal  peak RSS MB  idle RSS MB  KB/agent (peak-idle)  CPU s  CPU ms/agent  pg CPU s  failed');
  const rows: DensityRow[] = [];
  for (const n of sizes) {
    const ours = await measureLooplaneDensity(n);
    console.log(line(ours));
    const theirs = await measureLangGraphDensity(n);
    console.log(line(theirs));
    console.log(`       Looplane ÷ LangGraph: wall ${(ours.wall / theirs.wall).toFixed(2)} (${versus(ours.wall, theirs.wall)}), peak RSS ${(ours.peak / theirs.peak).toFixed(2)} (${versus(ours.peak, theirs.peak, 'less', 'more')}), CPU ${(ours.cpu.process / theirs.cpu.process).toFixed(2)}`);
    rows.push(ours, theirs);
  }
  const json = rows.map((r) => ({ system: r.system, n: r.n, wall: round(r.wall), xIdeal: round(r.wall / IDEAL_S), peakMb: round(r.peak, 1), idleMb: round(r.idle, 1), kbPerAgent: round(perAgentKb(r), 1), cpuS: round(r.cpu.process), postgresCpuS: round(r.cpu.postgres), failed: r.failed }));
  console.log(JSON.stringify({ bench: 'density', idealS: IDEAL_S, warmupRuns: WARMUP_RUNS, rows: json }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
