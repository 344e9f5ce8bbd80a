import { callerAs } from '@looplane/api/testing';
import { loadSessionEvents } from '@looplane/db';
import { PostgresWorkspaceStore, S3WorkspaceStore } from '@looplane/workspaces';
import { startTestS3Server } from '@looplane/workspaces/testing/s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../testing/test-runtime';
import {
  auditRuns,
  driveRuns,
  expectedFiles,
  filesThroughApi,
  filesThroughTarball,
  finishedCalls,
  FORK_SCRIPT,
  setUpHostLoss,
  type HostLossContext,
} from './host-loss-scenario';
import { createTestAgent } from '@looplane/db/testing';

/**
 * Fault test: losing a host loses no agent's work. Three worker processes on three simulated
 * hosts (each with its own workspace root) run 60 runs that write files over several turns and
 * park once on an approval. Hosts are lost at random points while runs work (kill -9 and the
 * workspace root deleted) and replaced by hosts with empty roots; once every run is parked on its
 * approval, the host that ran a session is lost right before its approval is given (so every run
 * is approved after its host was lost). Every run must finish with exactly the
 * files its tool calls wrote (through `sessions.files` and the download), runs approved after
 * their host was lost must see their earlier files, and forks of sessions from lost hosts start
 * with the fork point's files. Once with each store.
 */

const RUNS = 60;

function hostLossSuite(name: string, setup: () => Promise<HostLossContext>) {
  describe(`fault: host loss with the ${name} store`, () => {
    let ctx: HostLossContext;
    beforeAll(async () => {
      ctx = await setup();
    }, 120_000);
    afterAll(async () => ctx?.close());

    it(`finishes ${RUNS} runs with every file their calls wrote while hosts are lost`, { timeout: 300_000 }, async () => {
      const outcome = await driveRuns(ctx, RUNS, 5);
      const audit = await auditRuns(
        ctx.t.db,
        ctx.pool,
        outcome.runs.map((r) => r.runId),
      );
      console.info(`host loss (${name}): ${JSON.stringify({ ...audit, losses: outcome.losses, approvedAfterHostLoss: outcome.approvedAfterHostLoss.size })}`);
      expect(audit.statuses).toEqual({ succeeded: RUNS });
      expect(audit.logProblems).toEqual([]);
      expect(outcome.approvedAfterHostLoss.size).toBeGreaterThanOrEqual(5);

      for (const run of outcome.runs) {
        const expected = await expectedFiles(ctx.t.db, [{ sessionId: run.sessionId }]);
        expect(await filesThroughApi(ctx, run.sessionId), `files of run ${run.runId}`).toEqual(expected);
        expect(await filesThroughTarball(ctx, run.sessionId), `download of run ${run.runId}`).toEqual(expected);
      }
      // Approved after their host was lost: the shell line after the approval saw the files written
      // before the wait (unless one of those writes was itself cut short by a lost host).
      let sawEarlierFiles = 0;
      for (const runId of outcome.approvedAfterHostLoss) {
        const run = outcome.runs.find((r) => r.runId === runId)!;
        const calls = await finishedCalls(ctx, run.sessionId);
        const wrote = (path: string) => calls.some((c) => c.name === 'write_file' && c.args.path === path && c.ok);
        const shell = calls.find((c) => c.name === 'shell');
        if (!shell || !wrote('a.txt') || !wrote('dir/b.txt')) continue;
        expect(shell.ok, `run ${runId}: the shell line after its host was lost (${shell.output})`).toBe(true);
        sawEarlierFiles++;
      }
      expect(sawEarlierFiles).toBeGreaterThanOrEqual(3);

      // Lose every host that ran these sessions, then fork six of them after their second write.
      for (const host of ctx.fleet.live()) await ctx.fleet.lose(host);
      const other = await createTestAgent(ctx.t.db, ctx.fx.teamId, { script: FORK_SCRIPT });
      const operator = await callerAs(ctx.deps, { userId: ctx.fx.members.operator.id });
      const forks: { sessionId: string; parentId: string; atEvent: number }[] = [];
      for (const run of outcome.runs) {
        if (forks.length === 6) break;
        // A run whose first two calls were its two writes, neither cut short by a lost host: its
        // branch (two model turns in) starts with exactly a.txt and dir/b.txt.
        const log = await loadSessionEvents(ctx.pool, run.sessionId);
        const ends = log.filter((e) => e.type === 'tool.finished' || e.type === 'tool.interrupted');
        const [first, second] = ends as { type: string; seq: number; payload: { ok?: boolean; commit?: string } }[];
        if (!first || !second || ![first, second].every((e) => e.type === 'tool.finished' && e.payload.ok && e.payload.commit)) continue;
        const fork = await operator.sessions.fork({
          teamId: ctx.fx.teamId,
          sessionId: run.sessionId,
          atEvent: second.seq,
          message: 'Check the files.',
          agentOverrides: { endpointId: other.endpointId },
        });
        forks.push(fork);
      }
      expect(forks).toHaveLength(6);
      for (const fork of forks) {
        await waitFor(
          async () => ['succeeded', 'failed'].includes((await ctx.t.db.session.findUniqueOrThrow({ where: { id: fork.sessionId } })).status) || undefined,
          60_000,
          'the fork',
        );
        const expected = { ...(await expectedFiles(ctx.t.db, [{ sessionId: fork.parentId, upTo: fork.atEvent }])), 'fork.txt': 'fork-ok\n' };
        expect(Object.keys(expected).sort()).toEqual(['a.txt', 'dir/b.txt', 'fork.txt']);
        expect(await filesThroughApi(ctx, fork.sessionId)).toEqual(expected);
      }
    });
  });
}

hostLossSuite('postgres', () =>
  setUpHostLoss({ hosts: 3, label: 'hostloss-pg', store: (pool) => new PostgresWorkspaceStore(pool), storeEnv: { LOOPLANE_WORKSPACE_STORE: 'postgres' } }),
);

hostLossSuite('s3', async () => {
  const s3 = await startTestS3Server();
  const options = {
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    prefix: 'hostloss/',
    region: 'us-east-1',
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  };
  const ctx = await setUpHostLoss({
    hosts: 3,
    label: 'hostloss-s3',
    store: (pool) => new S3WorkspaceStore(pool, options),
    storeEnv: {
      LOOPLANE_WORKSPACE_STORE: 's3',
      LOOPLANE_S3_ENDPOINT: s3.endpoint,
      LOOPLANE_S3_BUCKET: s3.bucket,
      LOOPLANE_S3_PREFIX: 'hostloss/',
      LOOPLANE_S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
  });
  return {
    ...ctx,
    close: async () => {
      await ctx.close();
      await s3.stop();
    },
  };
});
