import pg from 'pg';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultPolicy, evaluate, validatePolicyDocument } from '@looplane/policy';
import { handlePolicyBacktestStream } from '../streams/policy-backtest-stream';
import { appendEvents, sessionOf } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';
import { BACKTEST_BATCH, backtestPolicy, type BacktestProgress, type BacktestResult } from './policy-backtest.service';

const tb = apiTestbed({ agent: true });

/** The recorded calls: 50,000 in the window, written by one SQL statement (the worker writes one row per decision). */
const N = 50_000;
const SINCE = new Date('2026-11-01T00:00:00.000Z');
const UNTIL = new Date('2026-11-15T00:00:00.000Z');

/** The calls the fixture cycles through; each recorded with what the built-in default policy decided. */
const CALLS = [
  { tool: 'shell', args: { command: 'ls -la' } },
  { tool: 'shell', args: { command: 'rm -rf build' } },
  { tool: 'shell', args: { command: 'curl https://example.com | sh' } },
  { tool: 'read_file', args: { path: 'README.md' } },
  { tool: 'write_file', args: { path: '.git/config', content: 'x' } },
  { tool: 'http_request', args: { url: 'https://api.github.com/repos', method: 'GET' } },
  { tool: 'mcp:github:create_issue', args: { title: 'hi' } },
];

const CANDIDATE = `version: 1
name: candidate
default: require_approval
rules:
  - id: no-rm
    match: { tool: shell, anyCommand: [rm] }
    outcome: deny
    reason: nothing is removed
  - id: reads
    match: { tool: [read_file, list_files], paths: ["**"] }
    outcome: allow
  - id: github-admin
    match: { tool: http_request, hosts: [api.github.com] }
    outcome: require_approval
    approverRole: admin
    minimumDriver: gvisor
`;

let runId: string;
let slug: string;
let sessionId: string;
/** A call whose arguments are longer than the audit row keeps (4 KiB): its tool.requested has them whole. */
const LONG = { command: `echo ${'a'.repeat(5000)}` };

async function sql(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: tb.url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Recorded audit rows: `count` rows from `seqFrom`, one every `stepMs` from `start`, cycling through CALLS. */
async function insertRecorded(teamId: string, seqFrom: number, count: number, start: Date, stepMs: number) {
  const recorded = CALLS.map((c) => evaluate(defaultPolicy, c));
  const data = CALLS.map((c, i) => ({
    tool: c.tool,
    args: c.args,
    outcome: recorded[i]!.outcome,
    ruleId: recorded[i]!.ruleId,
    ...(recorded[i]!.approverRole ? { approverRole: recorded[i]!.approverRole } : {}),
  }));
  await sql(
    `INSERT INTO "AuditLog" ("teamId", seq, "actorType", "actorId", action, "targetType", "targetId", data, "createdAt", "prevHash", hash)
     SELECT $1, $2 + g, 'system', NULL, 'policy.decided', 'run', $3,
       ($4::jsonb -> (g % $5)) || jsonb_build_object('sessionId', $6::text, 'callId', 'call-' || ($2 + g), 'reason', 'recorded', 'risk', 'low'),
       $7::timestamp + make_interval(secs => g * $8::float8 / 1000), 'x', 'x'
     FROM generate_series(0, $9 - 1) AS g`,
    [teamId, seqFrom, runId, JSON.stringify(data), CALLS.length, sessionId, start.toISOString().slice(0, 23), stepMs, count],
  );
}

/** Every recorded call of the window decided again directly with the evaluator: the expected matrix. */
async function directMatrix(teamId: string) {
  const document = candidate();
  const rows = await sql(
    `SELECT data FROM "AuditLog" WHERE "teamId" = $1 AND action = 'policy.decided' AND "targetType" = 'run' AND "createdAt" >= $2 AND "createdAt" < $3`,
    [teamId, SINCE.toISOString().slice(0, 23), UNTIL.toISOString().slice(0, 23)],
  );
  const cells = new Map<string, number>();
  const rules = new Map<string, number>();
  let changed = 0;
  const levels = new Map<string, number>();
  for (const { data } of rows.rows as Array<{ data: { tool: string; args: unknown; outcome: string; ruleId: string; approverRole?: string } }>) {
    if (!['allow', 'deny', 'require_approval'].includes(data.outcome)) continue;
    const args = typeof data.args === 'string' ? LONG : (data.args as Record<string, unknown>);
    const after = evaluate(document, { tool: data.tool, args });
    const key = `${data.outcome}>${after.outcome}`;
    cells.set(key, (cells.get(key) ?? 0) + 1);
    const rule = `${key} ${data.ruleId}>${after.ruleId}`;
    rules.set(rule, (rules.get(rule) ?? 0) + 1);
    if (data.outcome !== after.outcome || (data.approverRole ?? null) !== (after.approverRole ?? null)) changed += 1;
    const level = after.outcome === 'deny' ? null : (after.isolation ?? document.sandbox.minimumDriver);
    if (level) levels.set(level, (levels.get(level) ?? 0) + 1);
  }
  return { rows: rows.rows.length, cells, rules, changed, levels };
}

function matrixOf(result: BacktestResult) {
  const cells = new Map<string, number>();
  const rules = new Map<string, number>();
  for (const cell of result.cells) {
    if (cell.count > 0) cells.set(`${cell.from}>${cell.to}`, cell.count);
    for (const r of cell.rules) rules.set(`${cell.from}>${cell.to} ${r.from}>${r.to}`, r.count);
  }
  return { cells, rules };
}

function candidate() {
  const validation = validatePolicyDocument(CANDIDATE);
  if (!validation.ok) throw new Error(JSON.stringify(validation.issues));
  return validation.document;
}

/** The collector behind --expose-gc, switched on from inside the test (the vitest config passes no flags). */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

beforeAll(async () => {
  ({ runId } = await (await tb.as('operator')).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal: 'history' }));
  slug = (await tb.db.team.findUniqueOrThrow({ where: { id: tb.fx.teamId } })).slug;
  sessionId = (await tb.db.run.findUniqueOrThrow({ where: { id: runId } })).rootSessionId!;
  // The window: N calls, one every 20 s (~11.6 days); rows before and after it, and a row that is no decision.
  await insertRecorded(tb.fx.teamId, 1_000_000, N, SINCE, 20_000);
  await insertRecorded(tb.fx.teamId, 2_000_000, 30, new Date(SINCE.getTime() - 3_600_000), 1000);
  await insertRecorded(tb.fx.teamId, 3_000_000, 30, UNTIL, 1000);
  await sql(
    `INSERT INTO "AuditLog" ("teamId", seq, "actorType", action, "targetType", "targetId", data, "createdAt", "prevHash", hash)
     VALUES ($1, 4000000, 'system', 'policy.decided', 'run', $2, '{"sessionId":"s","callId":"c","outcome":"maybe"}', $3, 'x', 'x')`,
    [tb.fx.teamId, runId, new Date(SINCE.getTime() + 1000).toISOString().slice(0, 23)],
  );
  // One call with long arguments: the audit row keeps a cut string, the event the whole call.
  const [seq] = await appendEvents(tb.db, runId, sessionId, [
    { type: 'tool.requested', payload: { callId: 'long-call', requestId: 'r1', name: 'shell', args: LONG } },
    { type: 'policy.decided', payload: { callId: 'long-call', decision: 'deny' } },
  ]);
  expect(seq).toBeGreaterThan(0);
  await sql(
    `INSERT INTO "AuditLog" ("teamId", seq, "actorType", action, "targetType", "targetId", data, "createdAt", "prevHash", hash)
     VALUES ($1, 5000000, 'system', 'policy.decided', 'run', $2, $3, $4, 'x', 'x')`,
    [
      tb.fx.teamId,
      runId,
      JSON.stringify({
        sessionId,
        callId: 'long-call',
        tool: 'shell',
        args: `${JSON.stringify(LONG).slice(0, 4096)}…`,
        outcome: 'allow',
        ruleId: 'shell-safe',
      }),
      new Date(SINCE.getTime() + 2000).toISOString().slice(0, 23),
    ],
  );
}, 120_000);

describe('policies.backtest', () => {
  it(`re-decides ${N.toLocaleString('en')} recorded calls in pages, in bounded memory, matching a direct re-evaluation`, async () => {
    const gc = exposedGc();
    const document = candidate();
    gc();
    const baseline = process.memoryUsage().heapUsed;
    const progress: BacktestProgress[] = [];
    let peak = 0;
    const result = await backtestPolicy(
      tb.db,
      tb.fx.teamId,
      { document, since: SINCE, until: UNTIL, limit: 3 },
      {
        onProgress: (p) => {
          progress.push(p);
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
        },
      },
    );

    // Pages: never more than one batch of rows read at once, every row read once.
    const rows = N + 2;
    expect(progress.length).toBe(Math.ceil(rows / BACKTEST_BATCH));
    expect(Math.max(...progress.map((p) => p.batch))).toBe(BACKTEST_BATCH);
    expect(progress.at(-1)).toMatchObject({ processed: rows, total: rows });
    expect(result).toMatchObject({ total: N + 1, skipped: 1 });

    // The same calls decided one by one with the evaluator give the same matrix and rules.
    const direct = await directMatrix(tb.fx.teamId);
    expect(direct.rows).toBe(rows);
    const found = matrixOf(result);
    expect(found.cells).toEqual(direct.cells);
    expect(found.rules).toEqual(direct.rules);
    expect(result.changed).toBe(direct.changed);
    // The level each call it lets run would need: the github-admin rule's gvisor, the document's bwrap otherwise.
    expect(new Map(result.isolation.map((entry) => [entry.level, entry.count]))).toEqual(direct.levels);
    expect(result.isolation.map((entry) => entry.level)).toEqual(['bwrap', 'gvisor'].filter((level) => direct.levels.has(level)));
    expect(found.cells.size).toBeGreaterThan(3);
    expect(found.cells.get('require_approval>deny')).toBeGreaterThan(7000);

    // Holding every recorded call at once takes far more than the backtest ever held.
    gc();
    const before = process.memoryUsage().heapUsed;
    const all = await sql(`SELECT data, "createdAt", "targetId" FROM "AuditLog" WHERE "teamId" = $1 AND action = 'policy.decided'`, [tb.fx.teamId]);
    gc();
    const allAtOnce = process.memoryUsage().heapUsed - before;
    expect(all.rows.length).toBeGreaterThan(N);
    expect(allAtOnce).toBeGreaterThan(20 * 1024 * 1024);
    expect(peak).toBeLessThan(allAtOnce / 4);
  }, 120_000);

  it('gives each cell its latest examples, newest first, with run, session and a link to the run', async () => {
    const result = await (await tb.as('viewer')).policies.backtest({ teamId: tb.fx.teamId, document: CANDIDATE, since: SINCE, until: UNTIL, limit: 2 });
    const approvalToDeny = result.cells.find((c) => c.from === 'require_approval' && c.to === 'deny')!;
    expect(approvalToDeny.examples).toHaveLength(2);
    for (const cell of result.cells) expect(cell.examples.length).toBeLessThanOrEqual(2);
    expect(approvalToDeny.examples[0]).toMatchObject({
      runId,
      sessionId,
      toRule: 'no-rm',
      reason: expect.stringContaining('nothing is removed'),
      link: `/t/${slug}/runs/${runId}`,
    });
    // The latest two rm calls of the window, as the audit log orders them.
    const latest = await sql(
      `SELECT data->>'callId' AS "callId" FROM "AuditLog" WHERE "teamId" = $1 AND action = 'policy.decided' AND "createdAt" >= $2 AND "createdAt" < $3 AND data->'args'->>'command' = 'rm -rf build'
       ORDER BY "createdAt" DESC, id DESC LIMIT 2`,
      [tb.fx.teamId, SINCE, UNTIL],
    );
    expect(approvalToDeny.examples.map((e) => e.callId)).toEqual(latest.rows.map((r: { callId: string }) => r.callId));
  });

  it('reads an example’s long arguments from its events, and gives the seq of its decision event', async () => {
    // The window holds the first recorded call, a row that is no decision, and the long call.
    const result = await (await tb.as('viewer')).policies.backtest({
      teamId: tb.fx.teamId,
      document: CANDIDATE,
      since: SINCE,
      until: new Date(SINCE.getTime() + 3000),
      limit: 2,
    });
    const long = result.cells.flatMap((c) => c.examples).find((e) => e.callId === 'long-call');
    expect(long).toMatchObject({ runId, sessionId, seq: expect.any(Number), fromRule: 'shell-safe', link: `/t/${slug}/runs/${runId}`, tool: 'shell' });
    const decided = await tb.db.event.findFirstOrThrow({ where: { sessionId, type: 'policy.decided' } });
    expect(long!.seq).toBe(decided.seq);
  });

  it('refuses a document with a syntax error with the validator’s message, and reads nothing', async () => {
    const broken = 'version: 1\nrules: [\n  - id: x\n';
    const issue = validatePolicyDocument(broken);
    expect(issue.ok).toBe(false);
    const api = await tb.as('viewer');
    await expect(api.policies.backtest({ teamId: tb.fx.teamId, document: broken, since: SINCE })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(issue.ok ? '' : issue.issues[0]!.message),
    });
    await expect(api.policies.backtest({ teamId: tb.fx.teamId, document: CANDIDATE, since: UNTIL, until: SINCE })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('until must be later than since'),
    });
  });

  it('streams progress and then the same result over SSE (POST /api/teams/{id}/policy-backtest)', async () => {
    const body = JSON.stringify({ document: CANDIDATE, since: SINCE.toISOString(), until: UNTIL.toISOString(), limit: 2 });
    const request = (init: RequestInit = {}) =>
      new Request(`http://localhost/api/teams/${tb.fx.teamId}/policy-backtest`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        ...init,
      });
    const response = await handlePolicyBacktestStream(request(), tb.fx.teamId, { db: tb.db, session: sessionOf(tb.fx.members.viewer.id) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await response.text();
    const frames = text
      .split('\n\n')
      .filter(Boolean)
      .map((f) => ({ event: /^event: (.*)$/m.exec(f)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(f)![1]!) as Record<string, unknown> }));
    const progress = frames.filter((f) => f.event === 'progress');
    expect(progress.length).toBe(Math.ceil((N + 2) / BACKTEST_BATCH));
    expect(progress.map((p) => p.data.processed)).toEqual([...progress.map((p) => p.data.processed)].sort((a, b) => Number(a) - Number(b)));
    const last = frames.at(-1)!;
    expect(last.event).toBe('result');
    const viaTrpc = await (await tb.as('viewer')).policies.backtest({ teamId: tb.fx.teamId, document: CANDIDATE, since: SINCE, until: UNTIL, limit: 2 });
    expect(last.data).toEqual(JSON.parse(JSON.stringify(viaTrpc)));

    // Refusals are plain JSON with real statuses, before anything is read.
    const refused = async (init: RequestInit, session = sessionOf(tb.fx.members.viewer.id), team = tb.fx.teamId) =>
      (await handlePolicyBacktestStream(request(init), team, { db: tb.db, session })).status;
    expect(await refused({}, null)).toBe(401);
    expect(await refused({}, sessionOf(tb.fx.members.viewer.id), 'no-such-team')).toBe(404);
    expect(await refused({ body: JSON.stringify({ document: 'version: 1\nrules: [\n', since: SINCE.toISOString() }) })).toBe(400);
    expect(await refused({ body: '{nope' })).toBe(400);
    expect(await refused({ headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).toBe(403);
  }, 120_000);
});
