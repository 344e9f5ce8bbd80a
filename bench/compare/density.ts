// Density, side by side: N concurrent agents, each 3 turns with the model thinking 2,000 ms per
// turn (ideal wall time 6 s), all started together, each system in a process of its own on the same
// Postgres: Looplane's worker (bench/runtime/density.ts: the real worker process, its runs started
// by `POST /api/v1/runs` inside the timed window) and LangGraph's ReAct graph with PostgresSaver
// (bench/langgraph/density-child.ts, its threads started inside the window too); both as plain
// JavaScript under plain node (bundled by esbuild, npm packages imported). Reports wall time vs the ideal,
// peak RSS, RSS per live agent, CPU of the process and of Postgres. Each process first serves the
// same warm-up (`--warmup K` quick agents together, 200 by default), as a process in service has.
// Run: `npx tsx bench/compare/density.ts [--quick] [--sizes 100,500,1000,2000] [--warmup 200]`. See bench/README.md.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { postgresSaver } from '../langgraph/checkpointers';
import { langGraphChildBundle } from '../langgraph/build-child';
import { createBenchDatabase } from '../langgraph/database';
import { WARMUP_RUNS, measure as measureLooplane, postgresCpuSeconds } from '../runtime/density';
import type { FigureInput } from '../report/schema';
import { option, round, stat, versus } from './stats';

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
  /** CPU seconds in the window: the system's process, Postgres, and (Looplane) the API server that created the runs. */
  cpu: { process: number; postgres: number; api?: number };
  /** Looplane: seconds until every run's create had answered. */
  created?: number;
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
  const child = spawn(process.execPath, [await langGraphChildBundle()], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      BENCH_N: String(n),
      BENCH_THINK_MS: String(thinkMs),
      BENCH_POOL: process.env.BENCH_POOL ?? '20',
      BENCH_WARMUP: String(WARMUP_RUNS),
    },
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

/** N Looplane runs in one worker process (bench/runtime/density.ts), created over HTTP inside the window. */
export async function measureLooplaneDensity(n: number): Promise<DensityRow> {
  const r = await measureLooplane(n);
  return {
    system: 'looplane',
    n,
    wall: r.wall,
    peak: r.peak,
    idle: r.idle,
    cpu: { process: r.cpu.worker, postgres: r.cpu.postgres, api: r.cpu.api },
    created: r.created,
    failed: r.failed,
  };
}

const perAgentKb = (r: DensityRow) => ((r.peak - r.idle) * 1024) / r.n;

function line(r: DensityRow): string {
  const label = r.system === 'looplane' ? 'Looplane (worker)' : 'LangGraph + PostgresSaver';
  return `${String(r.n).padStart(5)}  ${label.padEnd(26)} ${r.wall.toFixed(2).padStart(7)}  ${(r.wall / IDEAL_S).toFixed(2).padStart(7)}  ${r.peak.toFixed(0).padStart(11)}  ${r.idle.toFixed(0).padStart(11)}  ${perAgentKb(r).toFixed(0).padStart(14)}  ${r.cpu.process.toFixed(1).padStart(9)}  ${((r.cpu.process * 1000) / r.n).toFixed(1).padStart(12)}  ${r.cpu.postgres.toFixed(1).padStart(10)}  ${(r.cpu.api ?? 0).toFixed(1).padStart(8)}  ${String(r.failed).padStart(6)}`;
}

/** One system at one size over the repetitions: each figure's median with its range. */
function summary(rows: DensityRow[]) {
  return {
    wall: stat(rows.map((r) => r.wall)),
    xIdeal: stat(rows.map((r) => r.wall / IDEAL_S)),
    peakMb: stat(
      rows.map((r) => r.peak),
      1,
    ),
    idleMb: stat(
      rows.map((r) => r.idle),
      1,
    ),
    kbPerAgent: stat(rows.map(perAgentKb), 1),
    cpuS: stat(rows.map((r) => r.cpu.process)),
    postgresCpuS: stat(rows.map((r) => r.cpu.postgres)),
    ...(rows[0]?.cpu.api !== undefined ? { apiCpuS: stat(rows.map((r) => r.cpu.api ?? 0)) } : {}),
    ...(rows[0]?.created !== undefined ? { createdS: stat(rows.map((r) => r.created ?? 0)) } : {}),
    failed: rows.reduce((a, r) => a + r.failed, 0),
  };
}

/** The goals by size (#31): wall time within this many times the ideal, peak RSS at most this. */
const DENSITY_GOALS: Record<number, { xIdeal: number; peakMb: number }> = {
  2000: { xIdeal: 1.25, peakMb: 400 },
  5000: { xIdeal: 1.5, peakMb: 600 },
};

async function main() {
  const quick = process.argv.includes('--quick');
  const sizes = (option('sizes') ?? (quick ? '100,500' : '100,500,1000,2000')).split(',').map(Number);
  const repeat = Number(option('repeat') ?? (quick ? 1 : 5));
  console.log(
    `Density, side by side: N agents started together, 3 turns each, model thinking ${THINK_MS} ms per turn (ideal ${IDEAL_S} s); each system in its own process, after a warm-up of ${WARMUP_RUNS} quick agents; ${repeat} repetition(s) per size, the two systems alternating\n`,
  );
  console.log(
    '    N  system                        wall s  x ideal  peak RSS MB  idle RSS MB  KB/agent (peak-idle)  CPU s  CPU ms/agent  pg CPU s  API CPU s  failed',
  );
  const rows: DensityRow[] = [];
  const bySize: Array<{ n: number; looplane: ReturnType<typeof summary>; langgraph: ReturnType<typeof summary> }> = [];
  for (const n of sizes) {
    const ours: DensityRow[] = [];
    const theirs: DensityRow[] = [];
    for (let i = 0; i < repeat; i++) {
      ours.push(await measureLooplaneDensity(n));
      console.log(line(ours.at(-1)!));
      theirs.push(await measureLangGraphDensity(n));
      console.log(line(theirs.at(-1)!));
    }
    const a = summary(ours);
    const b = summary(theirs);
    console.log(
      `       medians, Looplane ÷ LangGraph: wall ${(a.wall.median / b.wall.median).toFixed(2)} (${versus(a.wall.median, b.wall.median)}), peak RSS ${(a.peakMb.median / b.peakMb.median).toFixed(2)} (${versus(a.peakMb.median, b.peakMb.median, 'less', 'more')}), CPU ${(a.cpuS.median / b.cpuS.median).toFixed(2)}`,
    );
    rows.push(...ours, ...theirs);
    bySize.push({ n, looplane: a, langgraph: b });
  }
  const figures: FigureInput[] = bySize.flatMap(({ n, looplane, langgraph }) => {
    const ours = rows.filter((r) => r.system === 'looplane' && r.n === n);
    const theirs = rows.filter((r) => r.system === 'langgraph' && r.n === n);
    const pairs = ours.map((r, i) => [r, theirs[i]!] as const);
    const goal = DENSITY_GOALS[n];
    const turns = n * 3;
    return [
      {
        key: `density.n${n}.x-ideal`,
        label: `N = ${n.toLocaleString('en-US')} agents: wall time ÷ ideal (${IDEAL_S} s)`,
        unit: '×',
        looplane: looplane.xIdeal,
        peer: { label: 'LangGraph + PostgresSaver', value: langgraph.xIdeal },
        ratio: { value: stat(pairs.map(([a, b]) => a.wall / b.wall)), below: 'sooner', above: 'later' },
        goals: goal ? [{ text: `within ${goal.xIdeal}× the ideal at N = ${n.toLocaleString('en-US')}`, met: looplane.xIdeal.median <= goal.xIdeal }] : [],
      },
      {
        key: `density.n${n}.peak-rss`,
        label: `N = ${n.toLocaleString('en-US')} agents: peak RSS of the process`,
        unit: 'MB',
        looplane: looplane.peakMb,
        peer: { label: 'LangGraph + PostgresSaver', value: langgraph.peakMb },
        ratio: { value: stat(pairs.map(([a, b]) => a.peak / b.peak)), below: 'less', above: 'more' },
        goals: goal ? [{ text: `≤ ${goal.peakMb} MB at N = ${n.toLocaleString('en-US')}`, met: looplane.peakMb.median <= goal.peakMb }] : [],
      },
      {
        key: `density.n${n}.pg-cpu-per-turn`,
        label: `N = ${n.toLocaleString('en-US')} agents: CPU of every Postgres process per turn (the runs' creation included)`,
        unit: 'ms',
        looplane: stat(ours.map((r) => (r.cpu.postgres * 1000) / turns)),
        peer: { label: 'LangGraph + PostgresSaver', value: stat(theirs.map((r) => (r.cpu.postgres * 1000) / turns)) },
        ratio: { value: stat(pairs.map(([a, b]) => a.cpu.postgres / b.cpu.postgres)), below: 'less', above: 'more' },
        goals: n === 2000 ? [{ text: '≤ 0.5 ms per turn at N = 2,000', met: stat(ours.map((r) => (r.cpu.postgres * 1000) / turns)).median <= 0.5 }] : [],
      },
    ];
  });
  const raw = rows.map((r) => ({
    system: r.system,
    n: r.n,
    wall: round(r.wall),
    xIdeal: round(r.wall / IDEAL_S),
    peakMb: round(r.peak, 1),
    idleMb: round(r.idle, 1),
    kbPerAgent: round(perAgentKb(r), 1),
    cpuS: round(r.cpu.process),
    postgresCpuS: round(r.cpu.postgres),
    ...(r.cpu.api !== undefined ? { apiCpuS: round(r.cpu.api) } : {}),
    ...(r.created !== undefined ? { createdS: round(r.created) } : {}),
    failed: r.failed,
  }));
  console.log(JSON.stringify({ bench: 'density', figures, idealS: IDEAL_S, warmupRuns: WARMUP_RUNS, repeat, sizes: bySize, rows: raw }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
