import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '@looplane/db';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import {
  appendEvents,
  callerAs,
  createAgentFixture,
  createTeamFixture,
  createTestLive,
  issueToken,
  serveApi,
  type AgentFixture,
  type ServedApi,
  type TeamFixture,
  type TestLive,
} from '@looplane/api/testing';
import { runCli } from '../cli';
import { Printer } from '../printer';

let db: TestDatabase;
let live: TestLive;
let server: ServedApi;
let fx: TeamFixture;
let agent: AgentFixture;
const saved = { url: process.env.LOOPLANE_URL, token: process.env.LOOPLANE_TOKEN };

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const printer = new Printer({ write: (t: string) => (out += t) }, { write: (t: string) => (err += t) });
  const code = await runCli(argv, printer);
  return { code, out, err };
}

/** A run whose root session has begun (`run.started` and a user message, as the worker writes them). */
async function startedSession(): Promise<{ runId: string; sessionId: string }> {
  const api = await callerAs({ db: db.db, dispatch: live.dispatch }, { userId: fx.members.operator.id });
  const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'fork me' });
  const run = await db.db.run.findUniqueOrThrow({ where: { id: runId }, include: { sessions: true } });
  const session = run.sessions[0]!;
  await appendEvents(db.db, runId, session.id, [
    { type: 'run.started', payload: { goal: run.goal, config: session.config as Prisma.InputJsonValue } },
    { type: 'message.added', payload: { role: 'user', text: 'more' } },
  ]);
  return { runId, sessionId: session.id };
}

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  server = await serveApi({ db: db.db, dispatch: live.dispatch }, { db: db.db, bus: live.bus, heartbeatMs: 500, pollMs: 60_000 });
  fx = await createTeamFixture(db.db);
  agent = await createAgentFixture(db.db, fx.teamId);
  process.env.LOOPLANE_URL = server.url;
  process.env.LOOPLANE_TOKEN = (await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret;
});
afterAll(async () => {
  process.env.LOOPLANE_URL = saved.url;
  process.env.LOOPLANE_TOKEN = saved.token;
  if (saved.url === undefined) delete process.env.LOOPLANE_URL;
  if (saved.token === undefined) delete process.env.LOOPLANE_TOKEN;
  await server?.close();
  await live?.close();
  await db?.drop();
});

describe('looplane fork', () => {
  it('forks a session at an event with a message and enqueues the new branch', async () => {
    const { runId, sessionId } = await startedSession();
    const { code, out, err } = await cli('fork', sessionId, '--at', '1', '--message', 'Try the other approach', '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const forked = JSON.parse(out) as { sessionId: string; runId: string; parentId: string; atEvent: number };
    expect(forked).toMatchObject({ runId, parentId: sessionId, atEvent: 1 });
    const row = await db.db.session.findUniqueOrThrow({ where: { id: forked.sessionId } });
    expect(row).toMatchObject({ parentId: sessionId, forkSeq: 1, lastSeq: 1, status: 'idle' });
    expect(await db.db.inboxMessage.findMany({ where: { sessionId: forked.sessionId }, select: { text: true } })).toEqual([{ text: 'Try the other approach' }]);
    expect((await live.jobs()).some((job) => job.sessionId === forked.sessionId)).toBe(true);

    const plain = await cli('fork', sessionId, '--at', '2');
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(new RegExp(`^Forked ${sessionId} at event #2: new branch \\S+\\n${server.url}/t/.+/runs/${runId}\\?session=`));
  });

  it('says what is wrong: usage errors exit 2, refused forks exit 1 with the server’s reason', async () => {
    const { sessionId } = await startedSession();
    expect((await cli('fork', sessionId)).code).toBe(2);
    expect((await cli('fork', sessionId, '--at', 'zero')).err).toContain('--at must be a whole number');
    const late = await cli('fork', sessionId, '--at', '99');
    expect(late.code).toBe(1);
    expect(late.err).toContain('has 2 committed event(s)');
    const missing = await cli('fork', 'cnosuchsession000000000000', '--at', '1');
    expect(missing.err).toContain('No such session in this team');
  });
});
