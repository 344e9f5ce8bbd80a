import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAgent, createTestGraphRun, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../build.mjs';
import { spawnWorker, type WorkerProcess } from './testing/fault-harness';
import { waitForRun } from './testing/runtime-suite';
import { createTestClient, testRedisUrl, uniquePrefix, type TestClient } from './testing/test-runtime';

/**
 * The production form of the worker: build.mjs bundles it, plain node runs it (no TypeScript
 * loader), and a swarm node configured `process` gets its own process started from the sibling
 * bundle. A graph run must go through all of it.
 */

let t: TestDatabase;
let client: TestClient;
let worker: WorkerProcess;
const prefix = uniquePrefix('bundle');

beforeAll(async () => {
  const bundles = await buildWorker();
  t = await createTestDatabase();
  client = await createTestClient(prefix);
  worker = spawnWorker(
    { DATABASE_URL: t.url, REDIS_URL: testRedisUrl, QUEUE_PREFIX: prefix, NODE_ENV: 'test', LOOPLANE_SANDBOX_DRIVER: 'dangerous-none' },
    join(mkdtempSync(join(tmpdir(), 'looplane-bundle-')), 'worker.log'),
    [],
    bundles['worker-with-test-tools'],
  );
  await Promise.race([
    worker.ready,
    worker.exited.then((code) => Promise.reject(new Error(`the worker exited with ${code}:\n${worker.output().slice(-2000)}`))),
  ]);
}, 60_000);

afterAll(async () => {
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  await client?.close();
  await t?.drop();
});

describe('the bundled worker', () => {
  it('runs under plain node and drives a graph run whose `process` node runs in a process of its own', async () => {
    const cmdline = readFileSync(`/proc/${worker.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline.some((arg) => arg.endsWith(join('dist', 'worker-with-test-tools.mjs')))).toBe(true);
    expect(cmdline).not.toContain('tsx');

    const teamId = await createTestTeam(t.db);
    const planner = await createTestAgent(t.db, teamId, {
      script: [{ delegate: { to: 'sealed', goal: 'work alone' } }, { delegate: { to: 'open', goal: 'work here' } }, { finish: 'both done' }],
    });
    const sealed = await createTestAgent(t.db, teamId, { script: [{ finish: 'sealed result' }] });
    const open = await createTestAgent(t.db, teamId, { script: [{ finish: 'open result' }] });
    const run = await createTestGraphRun(t.db, {
      root: 'planner',
      nodes: [
        { key: 'planner', agent: planner },
        { key: 'sealed', agent: sealed, isolation: 'process' },
        { key: 'open', agent: open },
      ],
      edges: [
        { from: 'planner', to: 'sealed' },
        { from: 'planner', to: 'open' },
      ],
    });
    await client.enqueue({ runId: run.runId, sessionId: run.sessionId, reason: 'start' });
    expect(await waitForRun(t.db, run.runId, undefined, 60_000)).toMatchObject({ status: 'succeeded', result: 'both done' });

    const returned = await t.db.auditLog.findMany({ where: { teamId, action: 'swarm.returned' } });
    const pidOf = (edge: string) =>
      (returned.find((a) => (a.data as { edgeId: string }).edgeId === run.edges[edge])!.data as { actedBy: { pid: number } }).actedBy.pid;
    expect(pidOf('planner->open')).toBe(worker.pid);
    expect(pidOf('planner->sealed')).not.toBe(worker.pid);
    expect(pidOf('planner->sealed')).toBeGreaterThan(0);
  }, 90_000);
});
