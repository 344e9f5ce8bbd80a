// runs.create accepted per second over HTTP: 32 concurrent clients POST /api/trpc/runs.create
// (Bearer token, superjson body) as fast as answers come back. Each accepted call committed a run,
// its root session, ledger and audit row, enqueued a BullMQ job and published team activity.
// Run: `npx tsx bench/sse/create-throughput.ts [--quick] [--clients N] [--seconds N]`; against a
// running server instead of the bundled API server: `--url URL --token T --team ID --agent ID`.
// What it measures is described in bench/sse/README.md.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fmt, percentile, startBench, type Bench } from './harness';

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

function post(path: string, payload: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${target.url}${path}`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
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

async function phase(seconds: number, record: boolean) {
  const latencies: number[] = [];
  const errors = new Map<string, number>();
  const start = performance.now();
  const until = start + seconds * 1000;
  const counts = await Promise.all(Array.from({ length: CLIENTS }, () => client(until, record ? latencies : null, errors)));
  const elapsed = (performance.now() - start) / 1000;
  return { accepted: counts.reduce((a, b) => a + b, 0), elapsed, latencies: latencies.sort((a, b) => a - b), errors };
}

await phase(WARMUP_SECONDS, false);
const cpuBefore = await bench?.serverCpuMs();
const clientCpuBefore = process.cpuUsage();
const measured = await phase(SECONDS, true);
const clientCpu = process.cpuUsage(clientCpuBefore);
const cpuAfter = await bench?.serverCpuMs();
agent.destroy();
const runsInDb = bench ? await bench.db.db.run.count() : null;
await bench?.close();
const loadAverage = (await import('node:os')).loadavg()[0] ?? 0;

const perSecond = Math.round(measured.accepted / measured.elapsed);
const result = {
  clients: CLIENTS,
  seconds: SECONDS,
  accepted: measured.accepted,
  perSecond,
  latency: { p50: percentile(measured.latencies, 50), p99: percentile(measured.latencies, 99) },
  errors: Object.fromEntries(measured.errors),
  runsInDb,
  /** CPU of the API server per accepted create, over the measured window. */
  serverCpuMsPerCreate: cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / Math.max(1, measured.accepted) : null,
  /** CPU of this load generator per accepted create (it shares the machine with the server). */
  clientCpuMsPerCreate: (clientCpu.user + clientCpu.system) / 1000 / Math.max(1, measured.accepted),
  loadAverage,
};
process.stdout.write(
  [
    `runs.create over HTTP: ${CLIENTS} concurrent clients for ${SECONDS} s against ${option('url') ?? 'the bundled API server'}`,
    `  accepted ${measured.accepted} (${perSecond}/s); latency p50 ${fmt(result.latency.p50)}, p99 ${fmt(result.latency.p99)}; errors ${measured.errors.size === 0 ? 0 : JSON.stringify(result.errors)}`,
    `  server CPU ${result.serverCpuMsPerCreate?.toFixed(2) ?? '?'} ms per create, client ${result.clientCpuMsPerCreate.toFixed(2)} ms; load average ${loadAverage.toFixed(1)} on ${(await import('node:os')).cpus().length} cores`,
    `  ${JSON.stringify(result)}`,
    '',
  ].join('\n'),
);
process.exit(measured.errors.size === 0 ? 0 : 1);
