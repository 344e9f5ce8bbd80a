import type { Prisma } from '@looplane/db';
import { craftedTar } from '@looplane/workspaces/testing';
import type { ApiDeps } from '../context';
import { graphFixture } from '../routers/graphs.fixtures';
import { appendSeed } from '../routers/sessions.fixtures';
import { appendEvents, callerAs, createAgentFixture, issueToken, type AgentFixture } from './fixtures';

/**
 * One team's resources for tests that call every operation (the REST matrix and bad-input
 * tables): made through the API as the team's admin where the API makes them, straight in the
 * database where only a worker would (approvals, session logs). The fresh ones are for calls
 * that use a resource up (a cancel, a decision, a resume, a removal).
 */
export interface TeamResources {
  teamId: string;
  agent: AgentFixture;
  /** A queued run of the agent and its main session. */
  runId: string;
  sessionId: string;
  /** A new queued run. */
  freshRun(): Promise<string>;
  /** A new pending approval on the run's main session. */
  pendingApproval(): Promise<string>;
  /** A session whose log has begun (`run.started`), so it can be forked at event 1 (made once). */
  startedSession(): Promise<string>;
  /** A session whose run was seeded with files (nothing changed since: its patch is empty), made once. */
  seededSession(): Promise<string>;
  /** A new session that finished (its log and its row), for a resume. */
  finishedSession(): Promise<string>;
  /** The team's graph, one run of it and its edge (made once). */
  graph(): Promise<{ graphId: string; runId: string; edgeId: string }>;
  /** A new stdio MCP server. */
  mcpServer(): Promise<string>;
  /** A new viewer token made by `userId`: its id. */
  tokenOf(userId: string): Promise<string>;
  /** A new uploaded archive (a small tar): its id. */
  upload(): Promise<string>;
}

let made = 0;

/** Makes {@link TeamResources} for `teamId`, acting as its admin `adminId`. */
export async function teamResources(deps: ApiDeps, teamId: string, adminId: string): Promise<TeamResources> {
  const db = deps.db;
  const agent = await createAgentFixture(db, teamId);
  const api = await callerAs(deps, { userId: adminId });
  const freshRun = async () => (await api.runs.create({ teamId, agentId: agent.agentId, goal: 'fixture run' })).runId;
  const mainSessionOf = async (runId: string) => (await db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true } })).mainSessionId!;
  const runId = await freshRun();
  const sessionId = await mainSessionOf(runId);

  const beginSession = async () => {
    const id = await freshRun();
    const run = await db.run.findUniqueOrThrow({ where: { id }, select: { mainSessionId: true, goal: true } });
    const session = await db.session.findUniqueOrThrow({ where: { id: run.mainSessionId! }, select: { id: true, config: true } });
    await appendEvents(db, id, session.id, [{ type: 'run.started', payload: { goal: run.goal, config: session.config as Prisma.InputJsonValue } }]);
    return { runId: id, sessionId: session.id };
  };
  let started: Promise<string> | null = null;
  let seeded: Promise<string> | null = null;

  return {
    teamId,
    agent,
    runId,
    sessionId,
    freshRun,
    async pendingApproval() {
      const seq = 1000 + made++;
      const row = await db.approval.create({
        data: { teamId, runId, sessionId, requestSeq: seq, toolCallId: `call-${seq}`, tool: 'shell', args: { command: 'rm -rf build' } },
      });
      return row.id;
    },
    startedSession: () => (started ??= beginSession().then((s) => s.sessionId)),
    seededSession: () =>
      (seeded ??= beginSession().then(async ({ sessionId }) => {
        await appendSeed(db, sessionId);
        return sessionId;
      })),
    async finishedSession() {
      const session = await beginSession();
      await appendEvents(db, session.runId, session.sessionId, [{ type: 'run.finished', payload: { status: 'succeeded', result: 'done' } }]);
      await db.session.update({ where: { id: session.sessionId }, data: { status: 'succeeded', result: 'done' } });
      return session.sessionId;
    },
    graph: () => graphFixture(deps, teamId, adminId, agent.agentId),
    async mcpServer() {
      return (await db.mcpServer.create({ data: { teamId, name: `fixture-${made++}`, transport: 'stdio', command: 'true' } })).id;
    },
    async tokenOf(userId) {
      return (await issueToken(db, teamId, userId, 'viewer')).id;
    },
    async upload() {
      const data = craftedTar([{ name: 'src/app.ts', content: `export const made = ${made++};\n` }]);
      return (await api.uploads.create({ teamId, filename: 'fixture.tar', data })).id;
    },
  };
}
