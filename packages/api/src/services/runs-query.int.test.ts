import { beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '@looplane/db';
import { listRunsInput, type ListRunsInput } from '../routers/runs.schema';
import { appendTestEvents, createAgentFixture, type AgentFixture } from '../testing/fixtures';
import { apiTestbed } from '../testing/testbed';
import { runsPageStatement } from './runs-query.service';

const BULK = 100_000;
const tb = apiTestbed();
let agentA: AgentFixture;
let agentB: AgentFixture;

const viewer = () => tb.as('viewer');

beforeAll(async () => {
  agentA = await createAgentFixture(tb.db, tb.fx.teamId);
  agentB = await createAgentFixture(tb.db, tb.fx.teamId);
  const { viewer: u1, operator: u2 } = tb.fx.members;
  // 100k runs in one statement. Three runs share each creation second, so the id tie-break is exercised;
  // every 1000th goal contains "needle", one contains a literal "50%".
  await tb.db.$executeRaw`
    INSERT INTO "Run" (id, "teamId", "agentId", goal, status, "createdById", "createdAt", "updatedAt")
    SELECT 'bulk' || lpad(i::text, 6, '0'), ${tb.fx.teamId},
           CASE WHEN i % 2 = 0 THEN ${agentA.agentId} ELSE ${agentB.agentId} END,
           'bulk goal ' || i || CASE WHEN i % 1000 = 0 THEN ' needle' ELSE '' END || CASE WHEN i = 777 THEN ' at 50% done' ELSE '' END,
           (ARRAY['queued','running','waiting','succeeded','failed','cancelled'])[1 + i % 6]::"RunStatus",
           CASE WHEN i % 3 = 0 THEN ${u1.id} ELSE ${u2.id} END,
           timestamp '2026-01-01' + (i / 3) * interval '1 second',
           timestamp '2026-02-01' + ((i * 7919) % ${BULK}) * interval '1 second'
    FROM generate_series(1, ${BULK}) AS i`;
  // The other team's runs must never show up.
  await tb.db.$executeRaw`
    INSERT INTO "Run" (id, "teamId", goal, "updatedAt") SELECT 'other' || i, ${tb.fx.otherTeamId}, 'needle elsewhere', now() FROM generate_series(1, 50) AS i`;
  await tb.db.$executeRaw`ANALYZE "Run"`;
}, 120_000);

/** Ground truth for a filter, straight from SQL. */
async function expectedIds(where: Prisma.Sql, order = Prisma.sql`"createdAt" DESC, id DESC`): Promise<string[]> {
  const rows = await tb.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM "Run" WHERE "teamId" = ${tb.fx.teamId} AND ${where} ORDER BY ${order}`;
  return rows.map((r) => r.id);
}

async function walk(input: Omit<Partial<ListRunsInput>, 'cursor'>): Promise<{ ids: string[]; pages: number }> {
  const api = await viewer();
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await api.runs.list({ teamId: tb.fx.teamId, ...input, cursor });
    ids.push(...page.runs.map((r) => r.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { ids, pages };
}

describe('runs.list keyset pagination', () => {
  it('walks all 100k runs of the team exactly once, newest first', async () => {
    const { ids, pages } = await walk({ limit: 200 });
    expect(pages).toBe(BULK / 200);
    expect(new Set(ids).size).toBe(BULK);
    expect(ids).toEqual(await expectedIds(Prisma.sql`true`));
  });

  it('filters by status, agent, creator and goal text, alone and together', async () => {
    const cases: Array<[Omit<Partial<ListRunsInput>, 'cursor'>, Prisma.Sql]> = [
      [{ text: 'needle' }, Prisma.sql`goal ILIKE '%needle%'`],
      [{ text: '50%' }, Prisma.sql`goal LIKE '%50\\%%'`],
      [{ status: ['failed'], agentId: agentA.agentId, text: '99' }, Prisma.sql`status = 'failed' AND "agentId" = ${agentA.agentId} AND goal LIKE '%99%'`],
      [
        { status: ['queued', 'running'], createdById: tb.fx.members.viewer.id, text: '12' },
        Prisma.sql`status IN ('queued', 'running') AND "createdById" = ${tb.fx.members.viewer.id} AND goal LIKE '%12%'`,
      ],
    ];
    for (const [input, where] of cases) {
      const { ids } = await walk({ ...input, limit: 7 });
      expect(ids, JSON.stringify(input)).toEqual(await expectedIds(where));
      expect(ids.length).toBeGreaterThan(0);
    }
    expect((await walk({ text: '50%' })).ids).toEqual(['bulk000777']);
  });

  it('sorts by last update too', async () => {
    const { ids } = await walk({ sort: 'updated', status: ['waiting'], agentId: agentB.agentId, limit: 100 });
    expect(ids).toEqual(await expectedIds(Prisma.sql`status = 'waiting' AND "agentId" = ${agentB.agentId}`, Prisma.sql`"updatedAt" DESC, id DESC`));
  });

  it('rows carry agent, creator and cost; a tampered or foreign cursor is a clear 400', async () => {
    const api = await viewer();
    const page = await api.runs.list({ teamId: tb.fx.teamId, limit: 1 });
    expect(page.runs[0]).toMatchObject({
      id: 'bulk100000',
      agent: { id: agentA.agentId, name: agentA.agentName },
      createdBy: { email: tb.fx.members.operator.email },
      spentCostMicros: 0,
    });
    await expect(api.runs.list({ teamId: tb.fx.teamId, cursor: 'bm9wZQ' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'cursor: not a cursor returned by runs.list',
    });
    await expect(api.runs.list({ teamId: tb.fx.teamId, cursor: page.nextCursor, sort: 'updated' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'cursor: it belongs to sort=created, not sort=updated',
    });
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

async function planOf(input: Partial<ListRunsInput>): Promise<PlanNode[]> {
  const page = runsPageStatement(tb.fx.teamId, listRunsInput.parse(input));
  const rows = await tb.db.$queryRawUnsafe<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>>(`EXPLAIN (FORMAT JSON) ${page.text}`, ...page.values);
  return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
}

describe('runs.list query plans with 100k runs (an index range, never a scan + sort of the team)', () => {
  // Goal text (ILIKE '%…%') is not in this table: without a trigram index it scans the team's runs.
  it.each<[string, () => Partial<ListRunsInput>]>([
    ['first page', () => ({})],
    ['a page deep in the list', () => ({ cursor: 'Y3JlYXRlZHwyMDI2LTAxLTAxVDAyOjAwOjAwLjAwMFp8YnVsazAyMTYwMA' })],
    ['status filter', () => ({ status: ['failed'] })],
    ['agent filter', () => ({ agentId: agentA.agentId })],
    ['creator filter', () => ({ createdById: tb.fx.members.viewer.id })],
    [
      'status + agent filter, deep',
      () => ({ status: ['running'], agentId: agentB.agentId, cursor: 'Y3JlYXRlZHwyMDI2LTAxLTAxVDAyOjAwOjAwLjAwMFp8YnVsazAyMTYwMA' }),
    ],
    ['updated sort with a status filter', () => ({ sort: 'updated', status: ['running'] })],
  ])('%s uses an index on Run and no full sort', async (_, input) => {
    const nodes = await planOf(input());
    const scans = nodes.filter((n) => n['Relation Name'] === 'Run');
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) expect(scan['Node Type'], JSON.stringify(nodes)).toMatch(/^Index( Only)? Scan$|^Bitmap Heap Scan$/);
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  });

  it('the first page reads the (teamId, createdAt, id) index in order', async () => {
    const nodes = await planOf({});
    expect(nodes.find((n) => n['Relation Name'] === 'Run')).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'Run_teamId_createdAt_id_idx' });
  });
});

describe('runs.events', () => {
  it('pages by event number, at most 1000 at a time', async () => {
    // The team holds thousands of queued runs made for the paging tests above: no queue limit here.
    const api = await tb.as('operator', { ...tb.deps, runLimits: { perMinute: 0, maxQueued: 0 } });
    const { runId } = await api.runs.create({ teamId: tb.fx.teamId, agentId: agentA.agentId, goal: 'chatty' });
    const run = await tb.db.run.findUniqueOrThrow({ where: { id: runId } });
    await appendTestEvents(tb.db, runId, run.mainSessionId!, 1200);
    await appendTestEvents(tb.db, runId, run.mainSessionId!, 1300);

    const first = await api.runs.events({ teamId: tb.fx.teamId, runId, limit: 1000 });
    expect(first.events.map((e) => e.eventNo)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(first).toMatchObject({ nextAfter: 1000, lastEventNo: 2500, hasMore: true });
    expect(first.events[0]).toMatchObject({
      sessionId: run.mainSessionId,
      seq: 1,
      type: 'message.added',
      version: 1,
      payload: { role: 'user', text: 'event 1' },
    });
    expect(first.events[0]!.createdAt).toBeInstanceOf(Date);

    const second = await api.runs.events({ teamId: tb.fx.teamId, runId, after: 1000, limit: 1000 });
    const third = await api.runs.events({ teamId: tb.fx.teamId, runId, after: second.nextAfter, limit: 1000 });
    expect(third).toMatchObject({ nextAfter: 2500, hasMore: false });
    expect(third.events).toHaveLength(500);
    const after = await api.runs.events({ teamId: tb.fx.teamId, runId, after: 2500 });
    expect(after).toMatchObject({ events: [], nextAfter: 2500, hasMore: false });
  });
});
