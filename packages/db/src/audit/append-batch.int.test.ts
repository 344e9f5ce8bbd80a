import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { appendAuditBatch, appendAuditBatchPg, type AuditTails } from './append-batch';
import { createPgPool } from '../runs/pg-pool';
import { appendAudit, recordAudit, type AuditEntry } from './audit.repository';
import { chainHash, GENESIS_HASH, type AuditRowContent } from './chain';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

async function team(slug: string) {
  return (await t.db.team.create({ data: { slug, name: slug } })).id;
}

/** The team's rows, checked to form one gap-free chain whose hashes verify; returns them. */
async function verifiedChain(teamId: string) {
  const rows = await t.db.auditLog.findMany({ where: { teamId }, orderBy: { seq: 'asc' } });
  let prev = GENESIS_HASH;
  rows.forEach((row, i) => {
    const content: AuditRowContent = {
      teamId: row.teamId,
      seq: row.seq,
      actorType: row.actorType,
      actorId: row.actorId,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      data: row.data,
      ip: row.ip,
      createdAt: row.createdAt.toISOString(),
    };
    expect(row.seq).toBe(i + 1);
    expect(row.prevHash).toBe(prev);
    expect(row.hash).toBe(chainHash(prev, content));
    prev = row.hash;
  });
  // Ids (insertion order) follow seq, and time never goes backwards along the chain.
  expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => (a < b ? -1 : 1)));
  for (const [i, row] of rows.slice(1).entries()) expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(rows[i]!.createdAt.getTime());
  return rows;
}

const entries = (teamId: string): AuditEntry[] => [
  {
    teamId,
    actor: { type: 'user', userId: 'u1' },
    action: 'run.created',
    targetType: 'run',
    targetId: 'r1',
    data: { b: 1, a: { z: [1, { y: null }] } },
    ip: '10.0.0.1',
  },
  {
    teamId,
    actor: { type: 'token', tokenId: 'k1', userId: 'u2' },
    action: 'run.created',
    targetType: 'run',
    targetId: 'r2',
    data: { text: 'ünïcode "quoted"\nline' },
  },
  { teamId, actor: { type: 'system', name: 'reconciler' }, action: 'run.requeued' },
];

describe('appendAuditBatch (real Postgres)', () => {
  it('writes the rows sequential appendAudit calls would, in one chain', async () => {
    const sequential = await team('batch-seq');
    const batched = await team('batch-batch');
    for (const entry of entries(sequential)) await recordAudit(t.db, entry);
    const results = await t.db.$transaction((tx) => appendAuditBatch(tx, entries(batched)));

    const a = await verifiedChain(sequential);
    const b = await verifiedChain(batched);
    expect(results).toEqual(b.map((row) => ({ seq: row.seq, hash: row.hash })));
    // Everything but the team, the time and the hashes that cover them is identical.
    const strip = ({ id: _id, teamId: _team, createdAt: _at, prevHash: _prev, hash: _hash, ...rest }: (typeof a)[number]) => rest;
    expect(b.map(strip)).toEqual(a.map(strip));
    expect(b[1]!.data).toEqual({ text: 'ünïcode "quoted"\nline', onBehalfOf: 'u2' });
  });

  it('on a pg pool (two round trips) writes the same rows, continues chains across teams, and keeps them sound under concurrency', async () => {
    const pool = createPgPool(t.url, { max: 6 });
    try {
      const sequential = await team('pg-seq');
      const batched = await team('pg-batch');
      const other = await team('pg-other');
      for (const entry of entries(sequential)) await recordAudit(t.db, entry);
      await recordAudit(t.db, entries(other)[0]!);
      const results = await appendAuditBatchPg(pool, [...entries(batched), ...entries(other)]);
      const a = await verifiedChain(sequential);
      const b = await verifiedChain(batched);
      const strip = ({ id: _id, teamId: _team, createdAt: _at, prevHash: _prev, hash: _hash, ...rest }: (typeof a)[number]) => rest;
      expect(b.map(strip)).toEqual(a.map(strip));
      expect(results.slice(0, 3)).toEqual(b.map((row) => ({ seq: row.seq, hash: row.hash })));
      expect((await verifiedChain(other)).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
      // Concurrent batches on one team serialise on its lock: one gap-free chain.
      await Promise.all(Array.from({ length: 8 }, () => appendAuditBatchPg(pool, entries(batched))));
      expect(await verifiedChain(batched)).toHaveLength(27);
    } finally {
      await pool.end();
    }
  });

  it('continues an existing chain, interleaves with single appends and spans teams', async () => {
    const x = await team('batch-x');
    const y = await team('batch-y');
    await recordAudit(t.db, { teamId: x, actor: { type: 'system', name: 't' }, action: 'first' });
    const results = await t.db.$transaction((tx) =>
      appendAuditBatch(tx, [...entries(y), ...entries(x), { teamId: y, actor: { type: 'system', name: 't' }, action: 'last' }]),
    );
    await t.db.$transaction((tx) => appendAudit(tx, { teamId: x, actor: { type: 'system', name: 't' }, action: 'after' }));
    expect(results.map((r) => r.seq)).toEqual([1, 2, 3, 2, 3, 4, 4]);
    expect((await verifiedChain(x)).map((r) => r.action)).toEqual(['first', 'run.created', 'run.created', 'run.requeued', 'after']);
    expect((await verifiedChain(y)).map((r) => r.action)).toEqual(['run.created', 'run.created', 'run.requeued', 'last']);
  });

  it('concurrent batches and single appends of one team form one gap-free chain', async () => {
    const z = await team('batch-concurrent');
    const actor = { type: 'system', name: 't' } as const;
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        t.db.$transaction((tx) =>
          appendAuditBatch(
            tx,
            Array.from({ length: 5 }, (_, j) => ({ teamId: z, actor, action: 'batch', data: { i, j } })),
          ),
        ),
      ),
      ...Array.from({ length: 10 }, (_, i) => recordAudit(t.db, { teamId: z, actor, action: 'single', data: { i } })),
    ]);
    expect(await verifiedChain(z)).toHaveLength(50);
  });

  it('rolls back with its transaction and takes an empty batch', async () => {
    const w = await team('batch-rollback');
    await expect(
      t.db.$transaction(async (tx) => {
        await appendAuditBatch(tx, entries(w));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await t.db.$transaction((tx) => appendAuditBatch(tx, []))).toEqual([]);
    expect(await t.db.auditLog.count({ where: { teamId: w } })).toBe(0);
  });

  it('with remembered tails writes in one round trip, re-chains onto the tail it read back when another writer moved it, and takes the locked way when it moved again', async () => {
    const pool = createPgPool(t.url, { max: 6 });
    const statements: string[] = [];
    // Set to make another writer append to this team right before each of the next N guarded INSERTs.
    let interfere: { teamId: string; times: number } | null = null;
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = async (...args: unknown[]) => {
        if (typeof args[0] === 'string') {
          statements.push(args[0]);
          if (interfere && interfere.times > 0 && args[0].includes('WHERE NOT EXISTS')) {
            interfere.times--;
            await recordAudit(t.db, { teamId: interfere.teamId, actor: { type: 'system', name: 'other' }, action: 'interleaved' });
          }
        }
        return query(...args);
      };
    });
    try {
      const a = await team('tails-a');
      const b = await team('tails-b');
      const tails: AuditTails = new Map();
      const actor = { type: 'system', name: 't' } as const;
      const batch = (teamId: string, action: string, size = 3) => Array.from({ length: size }, (_, i) => ({ teamId, actor, action, data: { i } }));

      // First batch: tails unknown, two round trips; they are remembered.
      await appendAuditBatchPg(pool, batch(a, 'first'), tails);
      expect(statements).toHaveLength(2);
      expect(tails.get(a)).toMatchObject({ seq: 3 });
      // Known tails: one round trip.
      statements.length = 0;
      const second = await appendAuditBatchPg(pool, batch(a, 'second'), tails);
      expect(statements).toHaveLength(1);
      expect(second.map((r) => r.seq)).toEqual([4, 5, 6]);

      // Another writer appends: the guarded INSERT writes nothing and reads the true tail back; the
      // batch re-chains onto it and is written by the next round trip.
      await recordAudit(t.db, { teamId: a, actor, action: 'elsewhere' });
      statements.length = 0;
      const third = await appendAuditBatchPg(pool, batch(a, 'third'), tails);
      expect(statements).toHaveLength(2);
      expect(third.map((r) => r.seq)).toEqual([8, 9, 10]);
      // Moved again before the second try: the batch takes the locked way (lock and tail read, then INSERT).
      interfere = { teamId: a, times: 2 };
      statements.length = 0;
      const fourth = await appendAuditBatchPg(pool, batch(a, 'fourth'), tails);
      expect(statements).toHaveLength(4);
      expect(fourth.map((r) => r.seq)).toEqual([13, 14, 15]);
      expect((await verifiedChain(a)).map((r) => r.action).slice(10)).toEqual(['interleaved', 'interleaved', 'fourth', 'fourth', 'fourth']);

      // Batches chained onto one another before either commits (and a second team) stay one chain each.
      await appendAuditBatchPg(pool, batch(b, 'b-first', 1), tails);
      await Promise.all(Array.from({ length: 6 }, (_, i) => appendAuditBatchPg(pool, [...batch(a, `concurrent-${i}`), ...batch(b, `b-${i}`, 2)], tails)));
      expect((await verifiedChain(a)).map((r) => r.action).slice(0, 10)).toEqual([
        'first',
        'first',
        'first',
        'second',
        'second',
        'second',
        'elsewhere',
        'third',
        'third',
        'third',
      ]);
      expect(await verifiedChain(a)).toHaveLength(33);
      expect(await verifiedChain(b)).toHaveLength(13);

      // A batch that fails writes nothing and forgets the tails it chained onto.
      const bad = [
        { teamId: a, actor, action: 'x'.repeat(10), data: { n: 1 } },
        { teamId: 'no-such-team', actor, action: 'orphan' },
      ];
      await expect(appendAuditBatchPg(pool, bad, tails)).rejects.toThrow();
      expect(tails.get(a)).toBeUndefined();
      expect(await verifiedChain(a)).toHaveLength(33);
      await appendAuditBatchPg(pool, batch(a, 'after'), tails);
      expect(await verifiedChain(a)).toHaveLength(36);
    } finally {
      await pool.end();
    }
  });
});
