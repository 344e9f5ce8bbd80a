import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPgPool, type PgPool } from '@looplane/db';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3WorkspaceStore, type S3StoreOptions } from './s3.store';
import { describeWorkspaceStore } from './testing';
import { startTestS3Server, type TestS3Server } from './testing/s3-server';

function storeOptions(server: TestS3Server, prefix = 'looplane/'): S3StoreOptions {
  return {
    bucket: server.bucket,
    prefix,
    region: 'us-east-1',
    endpoint: server.endpoint,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  };
}

describeWorkspaceStore('s3', async () => {
  const database = await createTestDatabase();
  const pool = createPgPool(database.url, { max: 4 });
  const server = await startTestS3Server();
  const teamId = await createTestTeam(database.db);
  const agent = await createTestAgent(database.db, teamId);
  const store = new S3WorkspaceStore(pool, storeOptions(server));
  return {
    store,
    newRun: async () => (await createTestRun(database.db, agent)).runId,
    finishRun: async (runId, finishedAt) => {
      await database.db.run.update({ where: { id: runId }, data: { status: 'succeeded', finishedAt } });
    },
    close: async () => {
      store.close();
      await server.stop();
      await pool.end();
      await database.drop();
    },
  };
});

describe('s3 workspace store: the bucket side', () => {
  const prefix = 'tenant-a/looplane/';
  let database: TestDatabase;
  let pool: PgPool;
  let server: TestS3Server;
  let store: S3WorkspaceStore;
  /** A plain client, to look at and tamper with the bucket behind the store's back. */
  let s3: S3Client;
  let newRun: () => Promise<string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, { max: 4 });
    server = await startTestS3Server();
    store = new S3WorkspaceStore(pool, storeOptions(server, prefix));
    s3 = new S3Client({
      region: 'us-east-1',
      endpoint: server.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    const agent = await createTestAgent(database.db, await createTestTeam(database.db));
    newRun = async () => (await createTestRun(database.db, agent)).runId;
  });
  afterAll(async () => {
    store?.close();
    s3?.destroy();
    await server?.stop();
    await pool?.end();
    await database?.drop();
  });

  const commit = (n: number) => n.toString(16).padStart(40, '0');
  const entry = (runId: string, n: number) => ({ runId, commit: commit(n), base: null, sessionId: 's1', depth: 0 });
  const keyOf = (runId: string, n: number) => `${prefix}runs/${runId}/packs/${commit(n)}.pack`;
  async function keysUnder(keyPrefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: keyPrefix, ...(token ? { ContinuationToken: token } : {}) }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }
  async function indexRows(runId: string): Promise<number> {
    const result = await pool.query(`SELECT count(*)::int AS n FROM "WorkspacePack" WHERE "runId" = $1`, [runId]);
    return (result.rows[0] as { n: number }).n;
  }

  it('stores a pack at prefix/runs/<run>/packs/<commit>.pack, byte for byte, and indexes it as s3', async () => {
    const runId = await newRun();
    const pack = Buffer.from([0x50, 0x41, 0x43, 0x4b, 0, 255, 1, 2]);
    await store.put(entry(runId, 1), pack);
    expect(await keysUnder(`${prefix}runs/${runId}/`)).toEqual([keyOf(runId, 1)]);
    const object = await s3.send(new GetObjectCommand({ Bucket: server.bucket, Key: keyOf(runId, 1) }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(pack);
    const row = await pool.query(`SELECT "storage", "bytes" FROM "WorkspacePack" WHERE "runId" = $1`, [runId]);
    expect(row.rows).toEqual([{ storage: 's3', bytes: pack.length }]);
    const [stored] = await store.chain(runId, commit(1));
    expect(await store.read(stored!)).toEqual(pack);
  });

  it('a put of a commit already indexed uploads nothing', async () => {
    const runId = await newRun();
    await store.put(entry(runId, 1), Buffer.from('first'));
    await s3.send(new DeleteObjectCommand({ Bucket: server.bucket, Key: keyOf(runId, 1) }));
    await store.put(entry(runId, 1), Buffer.from('second, longer'));
    expect(await keysUnder(`${prefix}runs/${runId}/`)).toEqual([]);
    expect((await store.chain(runId, commit(1)))[0]?.bytes).toBe(5);
  });

  it('removeRun deletes every object under the run prefix, orphans included, across list pages, and nothing else', async () => {
    const runId = await newRun();
    const neighbour = await newRun();
    await store.put(entry(runId, 1), Buffer.from('indexed'));
    await store.put(entry(neighbour, 1), Buffer.from('neighbour'));
    // Orphans: what puts that crashed between PutObject and the index row leave. 1005 of them, so
    // the listing spans two pages of 1000 and DeleteObjects runs twice.
    const orphans = Array.from({ length: 1005 }, (_, i) => keyOf(runId, 1000 + i));
    for (let at = 0; at < orphans.length; at += 50) {
      await Promise.all(orphans.slice(at, at + 50).map((Key) => s3.send(new PutObjectCommand({ Bucket: server.bucket, Key, Body: 'orphan' }))));
    }
    const outside = `${prefix}runs/${runId}-other/packs/${commit(1)}.pack`; // shares the run id as a string prefix
    await s3.send(new PutObjectCommand({ Bucket: server.bucket, Key: outside, Body: 'x' }));
    expect(await keysUnder(`${prefix}runs/${runId}/`)).toHaveLength(1006);

    await store.removeRun(runId, 'retention');
    expect(await keysUnder(`${prefix}runs/${runId}/`)).toEqual([]);
    expect(await indexRows(runId)).toBe(0);
    expect((await store.removal(runId))?.reason).toBe('retention');
    expect(await keysUnder(`${prefix}runs/${neighbour}/`)).toEqual([keyOf(neighbour, 1)]);
    expect(await keysUnder(outside)).toEqual([outside]);
    expect(await store.has(neighbour, commit(1))).toBe(true);
    await store.removeRun(runId, 'again'); // idempotent, with nothing left to list
  });

  it('a put whose upload fails rejects and leaves no index row, so no event can name the commit', async () => {
    const runId = await newRun();
    const broken = new S3WorkspaceStore(pool, { ...storeOptions(server, prefix), bucket: 'looplane-no-such-bucket', maxAttempts: 1 });
    try {
      await expect(broken.put(entry(runId, 7), Buffer.from('lost'))).rejects.toThrow(
        /could not store the pack of commit 0+7 .*s3:\/\/looplane-no-such-bucket\/.*NoSuchBucket/,
      );
    } finally {
      broken.close();
    }
    expect(await indexRows(runId)).toBe(0);
    expect(await store.has(runId, commit(7))).toBe(false);
    expect(await store.chain(runId, commit(7))).toEqual([]);
  });

  it("read fails clearly when an indexed pack's object is gone or short", async () => {
    const runId = await newRun();
    await store.put(entry(runId, 1), Buffer.from('twelve bytes'));
    await store.put(entry(runId, 2), Buffer.from('also twelve!'));
    const [one] = await store.chain(runId, commit(1));
    const [two] = await store.chain(runId, commit(2));
    await s3.send(new DeleteObjectCommand({ Bucket: server.bucket, Key: keyOf(runId, 1) }));
    await expect(store.read(one!)).rejects.toThrow(
      `the stored pack of commit ${commit(1)} (run ${runId}) at s3://${server.bucket}/${keyOf(runId, 1)} is missing`,
    );
    await expect(store.read(one!)).rejects.toMatchObject({ name: 'AppError', code: 'INTERNAL' });
    await s3.send(new PutObjectCommand({ Bucket: server.bucket, Key: keyOf(runId, 2), Body: 'short' }));
    await expect(store.read(two!)).rejects.toThrow(/has 5 bytes, 12 expected/);
  });
});
