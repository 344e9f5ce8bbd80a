// Inbound trigger throughput (bench/README.md, section 9): 32 senders POST signed deliveries
// (Standard Webhooks, a new webhook-id each, signed with @looplane/webhooks' `signedHeaders`) to
// `POST /api/hooks/{triggerId}` of the API server in a process of its own, each over its own
// keep-alive connection, as fast as answers come back. Each accepted delivery (202 `{ runId }`)
// verified the signature, checked the webhook-id was new, took a token of the trigger's Redis
// rate limit, rendered the goal, committed a new run (with its receipt, delivery row and audit
// row) and enqueued its BullMQ job; no worker runs them. A warm-up, then 5 measured windows of
// 10 s back to back, each reported alone; afterwards the database must hold one run per 202.
// Writes `bench/results/<date>-<commit>-trigger-throughput.json` (a temp file with --quick) and
// prints one JSON line with the figures in the results format.
// Run: `npm run bench:triggers -w @looplane/bench [-- --quick] [-- --senders N] [-- --seconds N] [-- --windows N] [-- --triggers N] [-- --warmup S]`.
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { cpus } from 'node:os';
import { callerAs, createAgentFixture, createTeamFixture, createTestLive } from '@looplane/api/testing';
import { SecretBox } from '@looplane/db';
import { createTestDatabase } from '@looplane/testkit';
import { newDeliveryId, signedHeaders } from '../../packages/webhooks/src/signing';
import { option, stat } from '../compare/stats';
import { fmt, percentile, startApiServer } from '../sse/harness';
import { TRIGGER_GOAL_PER_SECOND, triggerFigures } from './figures';
import { recordResults } from './results-out';
import { loadPhase, postJson } from '../sse/load-phase';

const quick = process.argv.includes('--quick');
const SENDERS = Number(option('senders') ?? 32);
const SECONDS = Number(option('seconds') ?? (quick ? 3 : 10));
const WINDOWS = Number(option('windows') ?? (quick ? 1 : 5));
// Long enough for the server to reach its steady state on a busy two-core host (JIT, pools, plans).
const WARMUP_SECONDS = Number(option('warmup') ?? (quick ? 1 : 40));
/**
 * The largest rate limit a trigger may have (triggers.schema.ts): 60,000 a minute, a bucket of
 * 60,000 refilled at 1,000/s, so one trigger takes the goal's 500/s for as long as this runs.
 * `--triggers N` spreads the senders over N triggers (sender i posts to trigger i mod N).
 */
const RATE_LIMIT_PER_MINUTE = 60_000;
const TRIGGERS = Number(option('triggers') ?? 1);

const results = await recordResults('trigger-throughput', quick);

// A fresh migrated database: a team with its members (the admin creates the triggers, whose runs
// are started as that admin), an agent, and the API server with a key to open trigger secrets.
const db = await createTestDatabase();
const fx = await createTeamFixture(db.db);
const agent = await createAgentFixture(db.db, fx.teamId);
const encryptionKey = randomBytes(32).toString('base64');
const live = await createTestLive();
const admin = await callerAs({ db: db.db, dispatch: live.dispatch, secretBox: new SecretBox(encryptionKey) }, { userId: fx.members.admin.id });
const triggers: Array<{ id: string; secret: string }> = [];
for (let i = 0; i < TRIGGERS; i++) {
  const { trigger, secret } = await admin.triggers.create({
    teamId: fx.teamId,
    name: `bench-trigger-${i + 1}`,
    target: { type: 'start_run', agentId: agent.agentId, goalTemplate: 'Handle the ticket {{payload.ticket.id}}: {{payload.ticket.subject}}' },
    auth: 'standard_webhooks',
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
  });
  triggers.push({ id: trigger.id, secret });
}
await live.close();
const server = await startApiServer(db.url, {
  poolSize: Number(option('pool') ?? 16),
  env: { LOOPLANE_ENCRYPTION_KEY: encryptionKey, BENCH_TRIGGER_RATE_PREFIX: `looplane-bench-trigger:${randomBytes(6).toString('hex')}:` },
});

// One keep-alive connection per sender, like 32 outside systems each with its own connection.
const http = new Agent({ keepAlive: true, maxSockets: SENDERS });

const post = (path: string, body: string, headers: Record<string, string>) => postJson(`${server.url}${path}`, http, body, headers);

let sent = 0;
/** Every runId a 202 named (warm-up included): each must be a run of its own in the database. */
const runIds = new Set<string>();
let accepted = 0;

/** One sender: signs a new delivery (not timed), posts it, waits for the answer, again until `until`. */
async function sender(index: number, until: number, latencies: number[] | null, errors: Map<string, number>): Promise<number> {
  const trigger = triggers[index % triggers.length]!;
  let ok = 0;
  while (performance.now() < until) {
    const n = sent++;
    const body = JSON.stringify({ ticket: { id: `T-${n}`, subject: `Printer on floor ${n % 7} is out of toner`, from: `sender-${index}@example.test` } });
    const headers = signedHeaders(trigger.secret, newDeliveryId(), Math.floor(Date.now() / 1000), body);
    const start = performance.now();
    const response = await post(`/api/hooks/${trigger.id}`, body, headers);
    const ms = performance.now() - start;
    if (response.status === 202) {
      ok++;
      accepted++;
      runIds.add((JSON.parse(response.text) as { runId: string }).runId);
      latencies?.push(ms);
    } else {
      const key = `${response.status} ${response.text.slice(0, 160)}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
  }
  return ok;
}

const phase = (seconds: number, record: boolean) => loadPhase(SENDERS, seconds, record, sender);

interface Window {
  accepted: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  serverCpuMsPerDelivery: number;
  errors: Record<string, number>;
}

const warmup = await phase(WARMUP_SECONDS, false);
const windows: Window[] = [];
const clientCpuBefore = process.cpuUsage();
for (let i = 0; i < WINDOWS; i++) {
  const cpuBefore = await server.cpuMs();
  const measured = await phase(SECONDS, true);
  const cpuAfter = await server.cpuMs();
  windows.push({
    accepted: measured.accepted,
    perSecond: Math.round(measured.accepted / measured.elapsed),
    p50: percentile(measured.latencies, 50),
    p99: percentile(measured.latencies, 99),
    max: measured.latencies.at(-1) ?? Number.NaN,
    serverCpuMsPerDelivery: (cpuAfter - cpuBefore) / Math.max(1, measured.accepted),
    errors: Object.fromEntries(measured.errors),
  });
  process.stderr.write(`window ${i + 1}/${WINDOWS}: ${windows.at(-1)!.perSecond}/s, p99 ${fmt(windows.at(-1)!.p99)}\n`);
}
const clientCpu = process.cpuUsage(clientCpuBefore);
http.destroy();
await server.stop();

// Every 202 made a run: as many runs of these triggers as 202s, each runId answered once, and
// every accepted delivery listed on its trigger.
const triggerIds = triggers.map((t) => t.id);
const runsInDb = await db.db.run.count({ where: { triggerId: { in: triggerIds } } });
const answeredRunsInDb = await db.db.run.count({ where: { id: { in: [...runIds] }, triggerId: { in: triggerIds } } });
const acceptedDeliveries = await db.db.triggerDelivery.count({ where: { triggerId: { in: triggerIds }, accepted: true } });
await db.drop();
const errors = [warmup.errors, ...windows.map((w) => new Map(Object.entries(w.errors)))].reduce((n, m) => n + [...m.values()].reduce((a, b) => a + b, 0), 0);
const check = {
  accepted,
  distinctRunIds: runIds.size,
  runsInDb,
  answeredRunsInDb,
  acceptedDeliveries,
  errors,
  ok: errors === 0 && runIds.size === accepted && runsInDb === accepted && answeredRunsInDb === accepted && acceptedDeliveries === accepted,
};

const figures = triggerFigures({
  senders: SENDERS,
  triggers: TRIGGERS,
  perSecond: windows.map((w) => w.perSecond),
  p50Ms: windows.map((w) => w.p50),
  p99Ms: windows.map((w) => w.p99),
});
const perSecond = figures[0]!.looplane;
const met = perSecond.median >= TRIGGER_GOAL_PER_SECOND;
const summary = {
  perSecond,
  latencyP50: stat(windows.map((w) => w.p50)),
  latencyP99: stat(windows.map((w) => w.p99)),
  latencyMax: stat(windows.map((w) => w.max)),
  /** CPU of the API server per accepted delivery, over each measured window. */
  serverCpuMsPerDelivery: stat(windows.map((w) => w.serverCpuMsPerDelivery)),
  /** CPU of the senders (this process: signing and HTTP) per accepted delivery; it shares the machine with the server. */
  clientCpuMsPerDelivery: Number(
    (
      (clientCpu.user + clientCpu.system) /
      1000 /
      Math.max(
        1,
        windows.reduce((n, w) => n + w.accepted, 0),
      )
    ).toFixed(3),
  ),
};
const file = await results.write({
  config: {
    senders: SENDERS,
    seconds: SECONDS,
    windows: WINDOWS,
    warmupSeconds: WARMUP_SECONDS,
    triggers: TRIGGERS,
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
  },
  goals: [{ goal: `≥ ${TRIGGER_GOAL_PER_SECOND} accepted deliveries/s with ${SENDERS} senders`, value: perSecond.median, met }],
  figures,
  summary,
  check,
  windows,
});
console.log(
  [
    `Inbound triggers${quick ? ' (--quick)' : ''}: ${SENDERS} senders, ${TRIGGERS} trigger(s), ${WINDOWS} window(s) of ${SECONDS} s after ${WARMUP_SECONDS} s of warm-up; ${cpus().length} cores`,
    ...windows.map(
      (w, i) =>
        `  #${i + 1}: accepted ${w.accepted} (${w.perSecond}/s); 202 latency p50 ${fmt(w.p50)}, p99 ${fmt(w.p99)}; server CPU ${w.serverCpuMsPerDelivery.toFixed(2)} ms/delivery; errors ${Object.keys(w.errors).length === 0 ? 0 : JSON.stringify(w.errors)}`,
    ),
    `  accepted/s median ${perSecond.median} (${perSecond.min}–${perSecond.max}) — goal ≥ ${TRIGGER_GOAL_PER_SECOND}/s: ${met ? 'met' : 'MISSED'}`,
    `  202 p99 median ${fmt(summary.latencyP99.median)} (${fmt(summary.latencyP99.min)}–${fmt(summary.latencyP99.max)}); p50 ${fmt(summary.latencyP50.median)}`,
    `  check: ${accepted} answered 202, ${runIds.size} distinct runIds, ${runsInDb} runs of the trigger(s) in the database, ${acceptedDeliveries} accepted deliveries listed, ${errors} errors — ${check.ok ? 'every 202 made one run' : 'MISMATCH'}`,
    `Raw results: ${file}`,
  ].join('\n'),
);
console.log(JSON.stringify({ bench: 'trigger-throughput', quick, results: file, figures, summary, check }));
process.exit(check.ok ? 0 : 1);
