// runs.create accepted per second over HTTP: 32 concurrent clients POST /api/trpc/runs.create
// (Bearer token, superjson body) as fast as answers come back. Each accepted call committed a run,
// its root session, ledger and audit row, enqueued a BullMQ job and published team activity.
// Run: `npx tsx bench/sse/create-throughput.ts [--quick] [--clients N] [--seconds N] [--repeat N]`; against a
// running server instead of the bundled API server: `--url URL --token T --team ID --agent ID`.
// What it measures is described in bench/sse/README.md.
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { stat } from '../compare/stats';
import type { FigureInput } from '../report/schema';
import { fmt, percentile, startBench, type Bench } from './harness';
import { loadPhase, postJson } from './load-phase';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const CLIENTS = Number(option('clients') ?? 32);
const SECONDS = Number(option('seconds') ?? (quick ? 3 : 10));
const WARMUP_SECONDS = quick ? 1 : 2;

let bench: Bench | null = null;
let target: { url: string; token: string; teamId: string; agentId: string };
if (option('url')) {
  target = { url: option('url')!, token: option('token') ?? '', teamId: option('team') ?? '', agentId: option('agent') ?? '' };
} else {
  bench = await startBench({ poolSize: Number(option('pool') ?? 16) });
  target = { url: bench.server.url, token: bench.token, teamId: bench.teamId, agentId: bench.agentId };
}

// One keep-alive connection per client, like 32 API clients each with its own connection.
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

const post = (path: string, payload: string) => postJson(`${target.url}${path}`, agent, payload, { authorization: `Bearer ${target.token}` });
const body = (i: number) => JSON.stringify({ json: { teamId: target.teamId, agentId: target.agentId, goal: `throughput run ${i}` } });
let counter = 0;

async function client(until: number, latencies: number[] | null, errors: Map<string, number>): Promise<number> {
  let ok = 0;
  while (performance.now() < until) {
    const start = performance.now();
    const response = await post('/api/trpc/runs.create', body(counter++));
    const text = response.text;
    if (response.status === 200) {
      ok++;
      latencies?.push(performance.now() - start);
    } else {
      const key = `${response.status} ${text.slice(0, 120)}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
  }
  return ok;
}

const phase = (seconds: number, record: boolean) => loadPhase(CLIENTS, seconds, record, (_i, until, latencies, errors) => client(until, latencies, errors));

await phase(WARMUP_SECONDS, false);
// --repeat measured windows (5; 1 at --quick) back to back on the same server, each reported alone.
const REPEAT = Number(option('repeat') ?? (quick ? 1 : 5));
const windows: Array<{ accepted: number; perSecond: number; p50: number; p99: number; serverCpuMsPerCreate: number | null; errors: Record<string, number> }> =
  [];
const clientCpuBefore = process.cpuUsage();
let acceptedTotal = 0;
for (let i = 0; i < REPEAT; i++) {
  const cpuBefore = await bench?.serverCpuMs();
  const measured = await phase(SECONDS, true);
  const cpuAfter = await bench?.serverCpuMs();
  acceptedTotal += measured.accepted;
  windows.push({
    accepted: measured.accepted,
    perSecond: Math.round(measured.accepted / measured.elapsed),
    p50: percentile(measured.latencies, 50),
    p99: percentile(measured.latencies, 99),
    serverCpuMsPerCreate: cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / Math.max(1, measured.accepted) : null,
    errors: Object.fromEntries(measured.errors),
  });
}
const clientCpu = process.cpuUsage(clientCpuBefore);
agent.destroy();
const runsInDb = bench ? await bench.db.db.run.count() : null;
await bench?.close();
const os = await import('node:os');
const loadAverage = os.loadavg()[0] ?? 0;
const errors = windows.reduce((n, w) => n + Object.values(w.errors).reduce((a, b) => a + b, 0), 0);
const cpuPerCreate = windows.map((w) => w.serverCpuMsPerCreate).filter((x): x is number => x !== null);
const perSecond = stat(
  windows.map((w) => w.perSecond),
  0,
);
const figures: FigureInput[] = [
  {
    key: 'api.runs-create-per-second',
    label: `runs.create accepted per second over HTTP (${CLIENTS} clients)`,
    unit: 'runs/s',
    looplane: perSecond,
    goals: [{ text: `≥ 1,000 runs/s with ${CLIENTS} clients`, met: perSecond.median >= 1000 }],
  },
  { key: 'api.runs-create-p99', label: 'runs.create latency, p99', unit: 'ms', looplane: stat(windows.map((w) => w.p99)) },
];
const result = {
  bench: 'api-throughput',
  figures,
  clients: CLIENTS,
  seconds: SECONDS,
  repeat: REPEAT,
  perSecond,
  latencyP50: stat(windows.map((w) => w.p50)),
  latencyP99: stat(windows.map((w) => w.p99)),
  /** CPU of the API server per accepted create, over the measured windows. */
  serverCpuMsPerCreate: cpuPerCreate.length > 0 ? stat(cpuPerCreate) : null,
  /** CPU of this load generator per accepted create (it shares the machine with the server). */
  clientCpuMsPerCreate: (clientCpu.user + clientCpu.system) / 1000 / Math.max(1, acceptedTotal),
  errors,
  runsInDb,
  windows,
  loadAverage,
};
process.stdout.write(
  [
    `runs.create over HTTP: ${CLIENTS} concurrent clients, ${REPEAT} window(s) of ${SECONDS} s against ${option('url') ?? 'the bundled API server'}`,
    ...windows.map(
      (w, i) =>
        `  #${i + 1}: accepted ${w.accepted} (${w.perSecond}/s); latency p50 ${fmt(w.p50)}, p99 ${fmt(w.p99)}; errors ${Object.keys(w.errors).length === 0 ? 0 : JSON.stringify(w.errors)}`,
    ),
    `  median ${result.perSecond.median}/s (${result.perSecond.min}–${result.perSecond.max}); server CPU ${result.serverCpuMsPerCreate?.median.toFixed(2) ?? '?'} ms per create, client ${result.clientCpuMsPerCreate.toFixed(2)} ms; load average ${loadAverage.toFixed(1)} on ${os.cpus().length} cores`,
    `  ${JSON.stringify(result)}`,
    '',
  ].join('\n'),
);
process.exit(errors === 0 ? 0 : 1);
