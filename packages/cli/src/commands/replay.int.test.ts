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
  const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: 'replay me' });
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

describe('looplane replay', () => {
  it('replays a session on an endpoint named like the team’s agents use it, from its start, and enqueues the branch', async () => {
    const { runId, sessionId } = await startedSession();
    const endpoint = await db.db.modelEndpoint.findUniqueOrThrow({ where: { id: agent.endpointId } });
    const { code, out, err } = await cli('replay', sessionId, '--endpoint', endpoint.name, '--mode', 'live', '--system-prompt', 'Be brief.', '--json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const replayed = JSON.parse(out) as { sessionId: string; runId: string; parentId: string; atEvent: number; mode: string };
    // The session's start: after run.started and its first message, before any model call.
    expect(replayed).toMatchObject({ runId, parentId: sessionId, atEvent: 2, mode: 'live' });
    const row = await db.db.session.findUniqueOrThrow({ where: { id: replayed.sessionId } });
    expect(row).toMatchObject({
      parentId: sessionId,
      forkSeq: 2,
      endpointId: agent.endpointId,
      replay: { sourceSessionId: sessionId, atEvent: 2, mode: 'live', endpointId: agent.endpointId, systemPrompt: true },
    });
    expect((await live.jobs()).some((job) => job.sessionId === replayed.sessionId)).toBe(true);

    const plain = await cli('replay', sessionId, '--at', '1');
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(new RegExp(`^Replaying ${sessionId} from event #1 \\(stop\\): new branch \\S+\\n${server.url}/t/.+/runs/${runId}\\?session=`));
  });

  it('says what is wrong: usage errors exit 2, refused replays exit 1 with the server’s reason', async () => {
    const { sessionId } = await startedSession();
    expect((await cli('replay')).code).toBe(2);
    expect((await cli('replay', sessionId, '--mode', 'sometimes')).err).toContain('--mode must be stop or live');
    expect((await cli('replay', sessionId, '--at', '0')).err).toContain('--at must be a whole number');
    const late = await cli('replay', sessionId, '--at', '99');
    expect(late.code).toBe(1);
    expect(late.err).toContain('has 2 committed event(s)');
    const unknown = await cli('replay', sessionId, '--endpoint', 'no-such-endpoint');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No such model endpoint in this team');
  });
});
