// The seeding benchmark's stack, all in this process and all real: a fresh database, the worker
// runtime with the bwrap sandbox and the Postgres workspace store (as the worker's integration
// tests run it: apps/worker/src/testing), the API's tRPC procedures as an operator calls them, and
// `git http-backend` behind Basic auth (packages/testkit) serving the repository. Every child
// process here is started asynchronously, so the git server's requests are never held up.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatch } from '@looplane/api';
import { callerAs, createTeamFixture, type TeamFixture } from '@looplane/api/testing';
import { createPgPool, SecretBox, type PgPool } from '@looplane/db';
import type { ModelPort } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { startGitHttpServer, type GitHttpServer } from '@looplane/testkit/git-servers';
import { PostgresWorkspaceStore } from '@looplane/workspaces';
import { lazyEgressSource } from '../../apps/worker/src/sandbox/test-egress-source';
import { createTestClient, startTestWorker, uniquePrefix, type TestClient, type TestWorker } from '../../apps/worker/src/testing/test-runtime';
import { createBenchRepository } from './repository';

/** Epoch milliseconds with sub-millisecond resolution: comparable with event timestamps (same clock, same process). */
export const now = () => performance.timeOrigin + performance.now();

/** The token's Basic user, as a forge token is sent (RepositorySecrets' default). */
export const TOKEN_USER = 'x-access-token';
export const SECRET_NAME = 'REPO_TOKEN';

/** The Postgres store, recording each `put` (the durable part of a snapshot: one transaction of chunk rows). */
class TimedPostgresStore extends PostgresWorkspaceStore {
  readonly puts: Array<{ runId: string; sessionId: string; bytes: number; ms: number }> = [];

  override async put(...args: Parameters<PostgresWorkspaceStore['put']>): Promise<void> {
    const started = performance.now();
    await super.put(...args);
    this.puts.push({ runId: args[0].runId, sessionId: args[0].sessionId, bytes: args[1].length, ms: performance.now() - started });
  }
}

export interface SeedingStack {
  database: TestDatabase;
  /** The bench's own pool (the store's profile, the settings). */
  pool: PgPool;
  worker: TestWorker;
  client: TestClient;
  store: TimedPostgresStore;
  server: GitHttpServer;
  repository: Awaited<ReturnType<typeof createBenchRepository>> & { url: string };
  token: string;
  fx: TeamFixture;
  /** Where the worker keeps session workspaces. */
  workspaceRoot: string;
  /** Epoch ms of every model call, per model endpoint name, in call order. */
  modelCalls: Map<string, number[]>;
  api: { db: TestDatabase['db']; dispatch: ReturnType<typeof createDispatch> };
  operator(): ReturnType<typeof callerAs>;
  close(): Promise<void>;
}

export async function startSeedingStack(files: number): Promise<SeedingStack> {
  const key = randomBytes(32).toString('base64');
  const token = `ghp_${randomBytes(18).toString('hex')}`;
  const root = await mkdtemp(join(tmpdir(), 'looplane-bench-seeding-'));
  // The sandbox's uid must reach its workspace under this folder.
  await chmod(root, 0o711);
  const workspaceRoot = join(root, 'workspaces');
  const repository = await createBenchRepository(join(root, 'repos'), files);
  const server = await startGitHttpServer({ root: join(root, 'repos'), users: { [TOKEN_USER]: token } });

  const database = await createTestDatabase();
  const pool = createPgPool(database.url, { max: 4 });
  const store = new TimedPostgresStore(pool);
  const modelCalls = new Map<string, number[]>();
  const timed = (inner: ModelPort, name: string): ModelPort => ({
    complete(request, options) {
      const calls = modelCalls.get(name) ?? [];
      calls.push(now());
      modelCalls.set(name, calls);
      return inner.complete(request, options);
    },
  });
  const egress = lazyEgressSource(() => database.url, key);
  const prefix = uniquePrefix('bench-seeding');
  const worker = await startTestWorker({
    databaseUrl: database.url,
    prefix,
    leaseTtlMs: 30_000,
    encryptionKey: key,
    store,
    sandbox: { driver: 'bwrap', workspaceRoot, egress },
    createModel: (endpoint, apiKey) => timed(createModelForEndpoint(endpoint, apiKey), endpoint.name),
  });
  const client = await createTestClient(prefix);
  const api = { db: database.db, dispatch: createDispatch(client.queue, client.bus) };

  const fx = await createTeamFixture(database.db);
  const admin = await callerAs(api, { userId: fx.members.admin.id });
  await admin.policies.save({
    teamId: fx.teamId,
    document: { version: 1, default: 'allow', workspace: { sources: ['http://127.0.0.1:*/**'] } },
  });
  await database.db.teamSecret.create({
    data: { teamId: fx.teamId, name: SECRET_NAME, kind: 'token', ciphertext: new SecretBox(key).seal(token), last4: token.slice(-4) },
  });

  return {
    database,
    pool,
    worker,
    client,
    store,
    server,
    repository: { ...repository, url: server.url('bench') },
    token,
    fx,
    workspaceRoot,
    modelCalls,
    api,
    operator: () => callerAs(api, { userId: fx.members.operator.id }),
    async close() {
      await worker.stop();
      await client.close();
      await egress.close();
      await server.close();
      await pool.end();
      await database.drop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
