import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createSessionQueue } from '@looplane/queue';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxCatalogue, setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { startTestWorker, testRedisUrl, waitFor } from '../testing/test-runtime';

// Two real workers on one queue: the first offers only bwrap, the second (started later) bwrap and
// gVisor. A template asking for gvisor with `whenIsolationUnavailable: wait` parks on the first and
// continues on the second, where the call runs under gVisor's kernel.
const root = mkdtempSync(join(tmpdir(), 'looplane-sandbox-wait-'));
chmodSync(root, 0o711);
const s = setUpRuntimeSuite('sandbox-wait', { leaseTtlMs: 3000, sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'weak') } });

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

type Payload = Record<string, unknown>;

describe('a run whose template waits for an isolation level no worker that took it offers', () => {
  it('defers the call, waits for isolation with its job in the level queue, and runs the call on the worker that offers the level', async () => {
    expect(s.worker.sandbox!.offered).toEqual(['bwrap']);
    const teamId = await createTestTeam(s.t.db, { policy: { version: 1, default: 'allow' } });
    const agent = await createTestAgent(s.t.db, teamId, {
      script: [{ calls: [{ tool: 'shell', args: { command: 'uname -r; echo made > level.txt' } }] }, { finish: 'done' }],
    });
    const ids = await createTestRun(s.t.db, agent, {
      config: {
        tools: sandboxCatalogue(s.worker.sandbox!),
        toolLoading: 'eager',
        sandbox: { driver: 'gvisor', whenIsolationUnavailable: 'wait', network: 'none', egressHosts: [], limits: {} },
      },
    });
    await s.client.enqueue({ ...ids, reason: 'start' });

    const waiting = await waitForRun(s.t.db, ids.runId, 'waiting', 45_000);
    expect(waiting.waitReason).toBe('isolation');
    const events = async () => s.t.db.event.findMany({ where: { runId: ids.runId }, orderBy: { seq: 'asc' } });
    const parked = await events();
    expect(parked.filter((e) => e.type === 'tool.deferred').map((e) => e.payload)).toEqual([
      { callId: expect.any(String), level: 'gvisor', reason: 'the agent requires the gvisor sandbox or stronger, but this worker runs bwrap', approved: false },
    ]);
    expect(parked.filter((e) => e.type === 'tool.finished')).toEqual([]);
    expect(existsSync(join(root, 'weak', ids.sessionId, 'level.txt'))).toBe(false);

    // The job waits in the gvisor queue, which the bwrap-only worker does not consume.
    const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
    const gvisorQueue = createSessionQueue(redis, { prefix: s.prefix, isolationLevel: 'gvisor' });
    try {
      await waitFor(async () => (await gvisorQueue.getWaiting()).some((job) => job.data.sessionId === ids.sessionId), 10_000, 'the job in the gvisor queue');
      expect((await s.t.db.run.findUniqueOrThrow({ where: { id: ids.runId } })).status).toBe('waiting');

      const strong = await startTestWorker({
        databaseUrl: s.t.url,
        prefix: s.prefix,
        leaseTtlMs: 3000,
        sandbox: { driver: 'bwrap', offered: ['bwrap', 'gvisor'], workspaceRoot: join(root, 'strong') },
      });
      try {
        const run = await waitForRun(s.t.db, ids.runId, undefined, 60_000);
        expect(run.status).toBe('succeeded');
      } finally {
        await strong.stop();
      }
    } finally {
      await gvisorQueue.close();
      await redis.quit();
    }

    const all = await events();
    const types = all.map((e) => e.type).filter((t) => t.startsWith('tool.') || t === 'run.resumed');
    expect(types).toEqual(['tool.requested', 'tool.started', 'tool.deferred', 'run.resumed', 'tool.started', 'tool.finished']);
    expect(all.find((e) => e.type === 'run.resumed')?.payload).toEqual({ reason: 'isolation', note: 'a worker offering gvisor took the run' });
    expect(all.filter((e) => e.type === 'tool.started').map((e) => (e.payload as Payload).attempt)).toEqual([1, 2]);
    const finished = all.find((e) => e.type === 'tool.finished')?.payload as Payload;
    expect(finished.ok).toBe(true);
    // gVisor's kernel answered, not the host's; nothing was written by the weaker worker.
    expect(String(finished.output)).not.toContain(release());
    expect(existsSync(join(root, 'weak', ids.sessionId, 'level.txt'))).toBe(false);
  }, 150_000);
});
