import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '@looplane/db';
import type { TestDatabase } from '@looplane/testkit';
import { appendEvents, callerAs, issueToken, type AgentFixture, type ServedApi, type TeamFixture, type TestLive } from '@looplane/api/testing';
import { runCli } from '../cli';
import { Printer } from '../printer';
import { pointCliAt, startServedApi, type ServedApiFixture } from '../testing/served-api';

let db: TestDatabase;
let live: TestLive;
let server: ServedApi;
let fx: TeamFixture;
let agent: AgentFixture;

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

let served: ServedApiFixture;
let restoreEnv = () => {};
beforeAll(async () => {
  served = await startServedApi();
  ({ db, live, server, fx, agent } = served);
  restoreEnv = pointCliAt(server.url, (await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret);
});
afterAll(async () => {
  restoreEnv();
  await served?.close();
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
