import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, type PgPool, type Queryable } from '../runs/pg-pool';
import { createTestTeam } from '../runs/testing/run-fixtures';
import {
  claimTriggerReceipt,
  completeTriggerReceipt,
  listTriggerDeliveries,
  recordTriggerDelivery,
  releaseTriggerReceipt,
  triggerReceipt,
} from './trigger-deliveries.repository';
import {
  deleteTeamTrigger,
  insertTrigger,
  listTeamTriggers,
  teamTrigger,
  triggerForDelivery,
  triggerTargetsExist,
  updateTeamTrigger,
  type NewTrigger,
} from './triggers.repository';

/**
 * Triggers, their deliveries and receipts against real Postgres, through node-postgres and through
 * Prisma's raw queries (the API's client): a team sees only its own triggers and never their
 * secret; of concurrent claims of one webhook-id exactly one wins.
 */
let t: TestDatabase;
let pool: PgPool;
let prisma: Queryable;
let teamId: string;
let otherTeamId: string;
let n = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 8 });
  prisma = {
    query: async (config: { text: string; values?: unknown[] }) => ({ rows: await t.db.$queryRawUnsafe<unknown[]>(config.text, ...(config.values ?? [])) }),
  } as unknown as Queryable;
  teamId = await createTestTeam(t.db);
  otherTeamId = await createTestTeam(t.db);
});
afterAll(async () => {
  await pool.end();
  await t.drop();
});

function trigger(overrides: Partial<NewTrigger> = {}): NewTrigger {
  const id = `ctrigger${String(n++).padStart(17, '0')}`;
  return {
    id,
    teamId,
    name: `trigger-${id}`,
    target: 'message_run',
    agentId: null,
    graphId: null,
    goalTemplate: null,
    budget: '{}',
    workspace: null,
    runId: null,
    auth: 'bearer',
    secretCiphertext: 'v1.sealed',
    rateLimitPerMinute: 60,
    enabled: true,
    createdById: null,
    ...overrides,
  };
}

describe('triggers repository', () => {
  it('stores a trigger once per name, shows it to its team only, and its secret only to the delivery path', async () => {
    for (const db of [pool, prisma]) {
      const made = await insertTrigger(db, trigger());
      expect(made).not.toBeNull();
      expect(made).not.toHaveProperty('secretCiphertext');
      expect(await insertTrigger(db, trigger({ name: made!.name }))).toBeNull();
      expect((await teamTrigger(db, teamId, made!.id))?.name).toBe(made!.name);
      expect(await teamTrigger(db, otherTeamId, made!.id)).toBeNull();
      expect((await triggerForDelivery(db, made!.id))?.secretCiphertext).toBe('v1.sealed');
      expect((await listTeamTriggers(db, teamId)).map((row) => row.id)).toContain(made!.id);
      expect(await listTeamTriggers(db, otherTeamId)).toEqual([]);
    }
  });

  it('changes only the given fields, and deletes only the team’s own', async () => {
    const made = (await insertTrigger(prisma, trigger({ workspace: '{"archive":{"uploadId":"u1"}}' })))!;
    const changes = { name: null, goalTemplate: null, budget: null, workspace: null, clearWorkspace: false, secretCiphertext: null };
    const disabled = await updateTeamTrigger(prisma, teamId, made.id, { ...changes, rateLimitPerMinute: 5, enabled: false });
    expect(disabled).toMatchObject({ name: made.name, rateLimitPerMinute: 5, enabled: false, workspace: { archive: { uploadId: 'u1' } } });
    const cleared = await updateTeamTrigger(pool, teamId, made.id, { ...changes, clearWorkspace: true, rateLimitPerMinute: null, enabled: null });
    expect(cleared).toMatchObject({ rateLimitPerMinute: 5, enabled: false, workspace: null });
    expect(await updateTeamTrigger(pool, otherTeamId, made.id, { ...changes, rateLimitPerMinute: 1, enabled: true })).toBeNull();
    expect(await deleteTeamTrigger(pool, otherTeamId, made.id)).toBeNull();
    expect((await deleteTeamTrigger(pool, teamId, made.id))?.id).toBe(made.id);
    expect(await triggerForDelivery(pool, made.id)).toBeNull();
  });

  it('says which targets are the team’s', async () => {
    expect(await triggerTargetsExist(pool, teamId, { agentId: 'nope', graphId: null, runId: null })).toEqual({ agent: false, graph: false, run: false });
  });
});

describe('deliveries and receipts', () => {
  it('lists deliveries newest first, a page at a time', async () => {
    const made = (await insertTrigger(pool, trigger()))!;
    for (let i = 0; i < 3; i++) {
      await recordTriggerDelivery(prisma, {
        id: `cdelivery${i}`,
        triggerId: made.id,
        webhookId: `msg_${i}`,
        status: 401,
        accepted: false,
        reason: 'bad signature',
        runId: null,
        bytes: 10 + i,
      });
    }
    const first = await listTriggerDeliveries(prisma, made.id, null, 2);
    expect(first.map((d) => d.bytes)).toHaveLength(2);
    const rest = await listTriggerDeliveries(pool, made.id, first[1]!.id, 2);
    expect([...first, ...rest].map((d) => d.id).sort()).toEqual(['cdelivery0', 'cdelivery1', 'cdelivery2']);
  });

  it('of concurrent claims of one webhook-id exactly one wins; a released claim can be made again; a completed one names its run', async () => {
    const made = (await insertTrigger(pool, trigger()))!;
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimTriggerReceipt(i % 2 ? pool : prisma, made.id, 'msg_same')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await triggerReceipt(pool, made.id, 'msg_same')).toEqual({ runId: '', messageId: null });
    await releaseTriggerReceipt(pool, made.id, 'msg_same');
    expect(await triggerReceipt(pool, made.id, 'msg_same')).toBeNull();
    expect(await claimTriggerReceipt(prisma, made.id, 'msg_same')).toBe(true);
    await completeTriggerReceipt(prisma, made.id, 'msg_same', 'crun1', 'cmsg1');
    await releaseTriggerReceipt(pool, made.id, 'msg_same');
    expect(await triggerReceipt(prisma, made.id, 'msg_same')).toEqual({ runId: 'crun1', messageId: 'cmsg1' });
    expect(await claimTriggerReceipt(pool, made.id, 'msg_same')).toBe(false);
  });
});
