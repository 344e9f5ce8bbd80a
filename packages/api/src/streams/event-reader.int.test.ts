import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { appendTestEvents, callerAs, createAgentFixture, createTeamFixture } from '../testing/fixtures';
import { createTestLive, type TestLive } from '../testing/live';
import { readEventFramesAfter } from '../services/run-events';
import { EventReader } from './event-reader';

let db: TestDatabase;
let live: TestLive;
const runs: Array<{ runId: string; sessionId: string }> = [];

beforeAll(async () => {
  db = await createTestDatabase();
  live = await createTestLive();
  const fx = await createTeamFixture(db.db);
  const agent = await createAgentFixture(db.db, fx.teamId);
  const api = await callerAs({ db: db.db, dispatch: live.dispatch }, { userId: fx.members.operator.id });
  for (let i = 0; i < 5; i++) {
    const { runId } = await api.runs.create({ teamId: fx.teamId, agentId: agent.agentId, goal: `read me ${i}` });
    const run = await db.db.run.findUniqueOrThrow({ where: { id: runId } });
    runs.push({ runId, sessionId: run.mainSessionId! });
    await appendTestEvents(db.db, runId, run.mainSessionId!, 3 + i);
  }
});
afterAll(async () => {
  await live?.close();
  await db?.drop();
});

describe('EventReader (one query for many streams)', () => {
  it('answers concurrent reads of many runs and cursors exactly as one read each would', async () => {
    // Asked in one turn of the event loop: one query answers them all.
    const reader = new EventReader(db.db, { limit: 4, parallel: 1 });
    const asks = [
      ...runs.map((run) => ({ runId: run.runId, after: 0 })),
      { runId: runs[4]!.runId, after: 2 },
      { runId: runs[4]!.runId, after: 2 },
      { runId: runs[0]!.runId, after: 3 },
      { runId: 'cnosuchrun000000000000000', after: 0 },
    ];
    const answers = await Promise.all(asks.map((ask) => reader.read(ask.runId, ask.after)));
    const expected = await Promise.all(asks.map((ask) => readEventFramesAfter(db.db, ask.runId, ask.after, 4)));
    expect(answers).toEqual(expected);
    expect(answers.map((frames) => frames.map((f) => f.eventNo))).toEqual([
      [1, 2, 3],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [3, 4, 5, 6],
      [3, 4, 5, 6],
      [],
      [],
    ]);
    expect(JSON.parse(answers[1]![0]!.json)).toMatchObject({ eventNo: 1, sessionId: runs[1]!.sessionId, type: 'message.added', payload: { text: 'event 1' } });
  });

  it('a failed query fails the reads that were in it, and the next reads work', async () => {
    const reader = new EventReader(db.db, { limit: 10 });
    // An event number past int8 makes Postgres refuse the whole statement.
    await expect(reader.read(runs[0]!.runId, Number.MAX_VALUE)).rejects.toThrow();
    expect((await reader.read(runs[0]!.runId, 0)).map((f) => f.eventNo)).toEqual([1, 2, 3]);
  });
});
