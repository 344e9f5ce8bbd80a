import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, type Prisma } from '@looplane/db';
import { appendEvents } from '@looplane/api/testing';
import type { RestTestbed } from '@looplane/api/testing/rest-testbed';
import { PostgresWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';

/**
 * What the operations under test need to exist, made the way the product makes it (the
 * procedures through a caller, rows as the worker writes them), never through the client.
 */
export function contractFixtures(rest: RestTestbed) {
  const tb = rest.tb;
  const operator = () => tb.as('operator');

  /** A queued run of the testbed's agent. */
  const run = async (goal: string) => {
    const { runId } = await (await operator()).runs.create({ teamId: tb.fx.teamId, agentId: tb.agent.agentId, goal });
    const row = await tb.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true, goal: true } });
    return { runId, sessionId: row.mainSessionId!, goal: row.goal };
  };

  /** A run whose main session has begun: `run.started` and a user message, as the worker writes them. */
  const startedSession = async () => {
    const started = await run('contract: a started session');
    const session = await tb.db.session.findUniqueOrThrow({ where: { id: started.sessionId }, select: { config: true } });
    await appendEvents(tb.db, started.runId, started.sessionId, [
      { type: 'run.started', payload: { goal: started.goal, config: session.config as Prisma.InputJsonValue } },
      { type: 'message.added', payload: { role: 'user', text: 'more' } },
    ]);
    return started;
  };

  return {
    run,
    startedSession,

    /** A branch that finished (its log and its row), which `resumeSession` continues. */
    async finishedSession() {
      const started = await startedSession();
      await appendEvents(tb.db, started.runId, started.sessionId, [{ type: 'run.finished', payload: { status: 'succeeded', result: 'done' } }]);
      await tb.db.session.update({ where: { id: started.sessionId }, data: { status: 'succeeded', result: 'done' } });
      return started;
    },

    /** A run seeded with files, as the worker records it (nothing changed since: an empty patch). */
    async seededSession() {
      const started = await startedSession();
      await appendEvents(tb.db, started.runId, started.sessionId, [
        { type: 'workspace.seeded', payload: { source: 'git', commit: 'c'.repeat(40), files: 1, bytes: 1, url: 'https://git.example.test/acme/app.git' } },
      ]);
      return started;
    },

    /** A pending approval of a tool call on a waiting run, as the worker opens it. */
    async pendingApproval() {
      const waiting = await run('contract: clean up');
      await tb.db.session.update({ where: { id: waiting.sessionId }, data: { status: 'waiting', waitReason: 'approval' } });
      const row = await tb.db.approval.create({
        data: {
          teamId: tb.fx.teamId,
          runId: waiting.runId,
          sessionId: waiting.sessionId,
          requestSeq: 3,
          toolCallId: 'call-1',
          tool: 'shell',
          args: { command: 'rm -rf build' },
          requestedById: tb.fx.members.operator.id,
        },
      });
      return { ...waiting, approvalId: row.id };
    },

    /** A one-node swarm graph of the testbed's agent. */
    async graph() {
      const graph = await (await operator()).graphs.create({
        teamId: tb.fx.teamId,
        name: `contract-graph-${Date.now()}`,
        definition: { root: 'lead', nodes: [{ key: 'lead', agentId: tb.agent.agentId }], edges: [] },
      });
      return graph.id;
    },

    /**
     * The API served again with a workspace reader over the Postgres workspace store (what
     * `getSessionFiles` reads), and once more with a run-start limit of one a minute (a 429).
     */
    async servers() {
      const pool = createPgPool(tb.url, { max: 2 });
      const cacheDir = await mkdtemp(join(tmpdir(), 'looplane-contract-files-'));
      const url = await rest.serveWith({ ...tb.deps, workspaces: new WorkspaceReader({ store: new PostgresWorkspaceStore(pool), cacheDir }) });
      const limitedUrl = await rest.serveWith({ ...tb.deps, runLimits: { perMinute: 1, maxQueued: 0 } });
      return {
        url,
        limitedUrl,
        close: async () => {
          await pool.end();
          await rm(cacheDir, { recursive: true, force: true });
        },
      };
    },
  };
}
