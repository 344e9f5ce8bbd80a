import { createPgPool, isTerminalRunStatus, type Db } from '@looplane/db';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import type { RunConfigInput } from '@looplane/engine';
import type { SandboxTool } from '@looplane/sandbox';
import { afterAll, beforeAll } from 'vitest';
import { createTestClient, startTestWorker, uniquePrefix, waitFor, type TestClient, type TestWorker, type TestWorkerOptions } from './test-runtime';
import { createToolCallsTable } from './test-tools';

export interface RuntimeSuite {
  t: TestDatabase;
  prefix: string;
  worker: TestWorker;
  client: TestClient;
}

/**
 * One test file's stack: a fresh database (with the test tools' table), its own BullMQ prefix, an
 * in-process worker runtime and a client playing the API. Torn down after the file.
 */
export function setUpRuntimeSuite(label: string, options: Partial<Omit<TestWorkerOptions, 'databaseUrl' | 'prefix'>> = {}): RuntimeSuite {
  const suite = { prefix: uniquePrefix(label) } as RuntimeSuite;
  beforeAll(async () => {
    suite.t = await createTestDatabase();
    const pool = createPgPool(suite.t.url, { max: 1 });
    await createToolCallsTable(pool);
    await pool.end();
    suite.worker = await startTestWorker({ databaseUrl: suite.t.url, prefix: suite.prefix, ...options });
    suite.client = await createTestClient(suite.prefix);
  });
  afterAll(async () => {
    await suite.worker?.stop();
    await suite.client?.close();
    await suite.t?.drop();
  });
  return suite;
}

/** Waits for a run to reach a status (default: any terminal one) and returns its row. */
export function waitForRun(db: Db, runId: string, status?: string, timeoutMs = 20_000) {
  return waitFor(
    async () => {
      const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
      return (status ? run.status === status : isTerminalRunStatus(run.status)) ? run : undefined;
    },
    timeoutMs,
    `run ${runId} to be ${status ?? 'finished'}`,
  );
}

/** What `runs.cancel` does: record who and when, tell every worker, enqueue the session. */
export async function requestCancel(db: Db, client: TestClient, run: { runId: string; sessionId: string }, userId = 'user-canceller'): Promise<void> {
  await db.run.update({ where: { id: run.runId }, data: { cancelRequestedAt: new Date(), cancelledById: userId } });
  await client.bus.publishCancel({ runId: run.runId });
  await client.enqueue({ ...run, reason: 'cancel' });
}

/** What `runs.sendMessage` does: an inbox row, a notice, and a wake-up unless the session is running. */
export async function sendMessage(db: Db, client: TestClient, run: { runId: string; sessionId: string }, text: string): Promise<string> {
  const message = await db.inboxMessage.create({ data: { runId: run.runId, sessionId: run.sessionId, text } });
  await client.bus.publishInbox(run.sessionId);
  const session = await db.session.findUniqueOrThrow({ where: { id: run.sessionId } });
  if (session.status !== 'running') await client.enqueue({ ...run, reason: 'message' });
  return message.id;
}

/** The catalogue entries of a worker's sandbox tools, as a run's config lists them. */
export function sandboxCatalogue(sandbox: { tools: readonly SandboxTool[] }): NonNullable<RunConfigInput['tools']> {
  return sandbox.tools.map((t) => ({ name: t.spec.name, description: t.spec.description, parameters: t.spec.parameters, idempotent: t.spec.idempotent }));
}
