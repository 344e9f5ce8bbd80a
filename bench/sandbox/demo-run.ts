// The demo agent's run per isolation level: the 12 steps of `demo-steps` (the seed's STEP_CALLS:
// load the tools, write, list, read, edit and search files, three shell lines) as one run whose
// template asks for the driver (`sandbox.driver`), the model answering at once, through the real
// worker runtime (BullMQ job, lease, write unit, Postgres, the workspace store) in-process against
// real Postgres and Redis. Wall time from enqueue to the run's finished row; the drivers run
// round-robin (one run of each per repetition, their order rotated), --repeat times (5; 1 at
// --quick), and each figure is the median of the repetitions with min–max. The worker's default is
// bwrap, with gvisor and microvm offered; a microVM run includes its guest's boot (one guest per
// session, and every run is a new session). --quick runs bwrap and gvisor only.
// Run as root (per-session uids, cgroups): `npx tsx bench/sandbox/demo-run.ts [--quick] [--repeat N]`.
// Prints a Markdown table and one JSON line in the results format (bench/report/schema.ts).
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam, DEMO_STEP_CALLS } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import { MicrovmDriver } from '@looplane/sandbox';
import { createTestDatabase } from '@looplane/testkit';
import { startTestWorker, createTestClient, uniquePrefix, waitFor } from '../../apps/worker/src/testing/test-runtime';
import { sandboxCatalogue } from '../../apps/worker/src/testing/runtime-suite';
import { createToolCallsTable } from '../../apps/worker/src/testing/test-tools';
import { option, stat, type Stat } from '../compare/stats';
import { FigureSchema, type Figure } from '../report/schema';

const quick = process.argv.includes('--quick');
const REPEAT = Number(option('repeat') ?? (quick ? 1 : 5));
type Driver = 'bwrap' | 'gvisor' | 'microvm';

/** The demo's steps as a faux script that answers at once, then the demo's final answer. */
const SCRIPT: ScriptTurn[] = [
  ...DEMO_STEP_CALLS.map((call, i) => ({ say: `Step ${i + 1} of ${DEMO_STEP_CALLS.length}: ${call.say}`, calls: [{ tool: call.tool, args: call.args }] })),
  { finish: `All ${DEMO_STEP_CALLS.length} steps done.` },
];

const time = (ms: number) => `${ms.toFixed(0)} ms`;

async function main() {
  const load = loadavg();
  const dir = await mkdtemp(join(tmpdir(), 'looplane-bench-demo-'));
  await chmod(dir, 0o711);
  const drivers: Driver[] = ['bwrap', 'gvisor'];
  let skipped: string | null = null;
  if (!quick) {
    const probe = await new MicrovmDriver({ stateDir: join(dir, 'probe-microvm'), probeDepth: 'prerequisites' }).probe();
    if (probe.available) drivers.push('microvm');
    else skipped = `microvm skipped: ${probe.reason}`;
  }
  const t = await createTestDatabase();
  const setup = createPgPool(t.url, { max: 1 });
  await createToolCallsTable(setup);
  await setup.end();
  const prefix = uniquePrefix('bench-demo');
  const worker = await startTestWorker({
    databaseUrl: t.url,
    prefix,
    sandbox: { driver: 'bwrap', offered: drivers, workspaceRoot: join(dir, 'workspaces') },
  });
  const client = await createTestClient(prefix);
  const walls = new Map<Driver, number[]>(drivers.map((d) => [d, []]));
  const toolCalls = new Map<Driver, number[]>(drivers.map((d) => [d, []]));
  try {
    const working = await worker.sandbox!.workingDrivers();
    for (const d of drivers) if (!working.includes(d)) throw new Error(`the ${d} driver does not work here (see Settings → Sandbox): cannot measure it`);
    const teamId = await createTestTeam(t.db, { policy: { version: 1, default: 'allow' } });
    const agent = await createTestAgent(t.db, teamId, { script: SCRIPT });
    const tools = sandboxCatalogue(worker.sandbox!);
    const runOn = async (driver: Driver) => {
      const ids = await createTestRun(t.db, agent, {
        config: { tools, toolLoading: 'on_demand', sandbox: { driver, network: 'none', egressHosts: [], limits: {} } },
      });
      const started = performance.now();
      await client.enqueue({ ...ids, reason: 'start' });
      const run = await waitFor(
        async () => {
          const row = await t.db.run.findUnique({ where: { id: ids.runId }, select: { status: true, error: true } });
          return row && ['succeeded', 'failed', 'cancelled'].includes(row.status) ? row : undefined;
        },
        300_000,
        `the ${driver} run`,
      );
      const wall = performance.now() - started;
      if (run.status !== 'succeeded') throw new Error(`the ${driver} run ended ${run.status}: ${run.error}`);
      const finished = await t.db.event.findMany({ where: { runId: ids.runId, type: 'tool.finished' }, select: { payload: true } });
      const failed = finished.filter((e) => (e.payload as { ok: boolean }).ok !== true);
      if (failed.length > 0) throw new Error(`the ${driver} run had failed calls: ${JSON.stringify(failed[0]?.payload)}`);
      return { wall, calls: finished.length };
    };
    // One untimed run per driver first: tool loading, the first gVisor start, caches.
    for (const driver of drivers) await runOn(driver);
    for (let rep = 0; rep < REPEAT; rep++) {
      const order = drivers.map((_, i) => drivers[(i + rep) % drivers.length]!);
      for (const driver of order) {
        const { wall, calls } = await runOn(driver);
        walls.get(driver)!.push(wall);
        toolCalls.get(driver)!.push(calls);
      }
    }
  } finally {
    await client.close();
    await worker.stop();
    await t.drop();
    await rm(dir, { recursive: true, force: true });
  }

  const stats = new Map<Driver, Stat>(drivers.map((d) => [d, stat(walls.get(d)!, 1)]));
  const bwrap = walls.get('bwrap')!;
  const lines = [
    `load average at start ${load.map((l) => l.toFixed(2)).join(' ')}, at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${REPEAT} repetition(s)${skipped ? `; ${skipped}` : ''}`,
    '',
    '| driver | demo run wall time, median (min–max) | × bwrap | tool calls per run |',
    '| --- | --- | --- | --- |',
    ...drivers.map((d) => {
      const s = stats.get(d)!;
      const ratio = stat(
        walls.get(d)!.map((w, i) => w / bwrap[i]!),
        2,
      );
      return `| ${d} | ${time(s.median)} (${time(s.min)}–${time(s.max)}) | ${ratio.median.toFixed(2)} | ${toolCalls.get(d)![0]} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const figures: Figure[] = drivers.map((d) =>
    FigureSchema.parse({
      key: `sandbox-demo.${d}`,
      label: `the demo-steps agent's 12-step run on ${d}, enqueue to finished (model answering at once${d === 'microvm' ? '; the guest boots in the run' : ''})`,
      unit: 'ms',
      looplane: stats.get(d),
      ...(d === 'bwrap'
        ? {}
        : {
            peer: { label: 'the same run on bwrap', value: stats.get('bwrap') },
            ratio: {
              value: stat(
                walls.get(d)!.map((w, i) => w / bwrap[i]!),
                2,
              ),
              below: 'faster',
              above: 'slower',
            },
          }),
    }),
  );
  process.stdout.write(`${JSON.stringify({ bench: 'sandbox-demo', figures, walls: Object.fromEntries(walls), skipped })}\n`);
}

await main();
