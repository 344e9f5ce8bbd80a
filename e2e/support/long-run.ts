import type { APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { expect } from './fixtures';
import { stack } from './stack';
import { stackDatabaseUrl } from './stack-database';
import { trpcMutation, trpcQuery } from './trpc-api';

/** The payload of the i-th appended event: a model turn, its cost, a shell call with output of 1 to 6 lines, a message. */
function appended(i: number, last: boolean): { type: string; payload: unknown } {
  if (last) return { type: 'message.added', payload: { role: 'user', text: `The last of the seeded events (#${i})` } };
  const turn = Math.floor(i / 8);
  const requestId = `seed-r${turn}`;
  const callId = `seed-c${turn}`;
  switch (i % 8) {
    case 0:
      return { type: 'model.requested', payload: { requestId, turn, messages: 2, tools: [], promptTokens: 40, promptBytes: 160, maxOutputTokens: 200 } };
    case 1:
      return { type: 'model.delta', payload: { requestId, index: 0, text: `Turn ${turn}: ` } };
    case 2:
      return {
        type: 'model.responded',
        payload: {
          requestId,
          text: `Turn ${turn}: run a command.`,
          finishReason: 'tool_calls',
          usage: { inputTokens: 40, outputTokens: 8, estimated: false },
          costMicros: 12,
        },
      };
    case 3:
      return { type: 'budget.charged', payload: { requestId, tokens: 48, costMicros: 12 } };
    case 4:
      return { type: 'tool.requested', payload: { callId, requestId, name: 'run_shell', args: { command: `echo ${turn}` } } };
    case 5:
      return { type: 'tool.started', payload: { callId, name: 'run_shell', args: { command: `echo ${turn}` }, attempt: 1 } };
    case 6:
      return {
        type: 'tool.finished',
        payload: {
          callId,
          ok: true,
          output: Array.from({ length: 1 + (turn % 6) }, (_, l) => `line ${l} of turn ${turn}`).join('\n'),
          truncated: false,
          exitCode: 0,
        },
      };
    default:
      return { type: 'message.added', payload: { role: 'user', text: `Note ${turn}: ${'more words '.repeat(turn % 30)}` } };
  }
}

/**
 * Appends `count` events to a run's main session straight into Postgres (a real run of that
 * length would take the faux model minutes), numbered on from the run's last event, in batches.
 * Returns the run's new last event number.
 */
async function appendEvents(databaseUrl: string, runId: string, count: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const run = await client.query<{ lastEventNo: string }>('SELECT "lastEventNo" FROM "Run" WHERE id = $1', [runId]);
    const session = await client.query<{ id: string; lastSeq: number }>('SELECT id, "lastSeq" FROM "Session" WHERE "runId" = $1 AND "parentId" IS NULL', [
      runId,
    ]);
    const [first, main] = [run.rows[0], session.rows[0]];
    if (!first || !main) throw new Error(`no run ${runId} with a main session`);
    const eventNo0 = Number(first.lastEventNo);
    for (let start = 0; start < count; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - start) }, (_, k) => start + k);
      const events = rows.map((i) => appended(i, i === count - 1));
      await client.query(
        `INSERT INTO "Event" ("runId", "sessionId", seq, "eventNo", type, version, payload)
         SELECT $1, $2, s, n, t, 1, p FROM unnest($3::int[], $4::bigint[], $5::text[], $6::jsonb[]) AS x(s, n, t, p)`,
        [
          runId,
          main.id,
          rows.map((i) => main.lastSeq + i + 1),
          rows.map((i) => eventNo0 + i + 1),
          events.map((e) => e.type),
          events.map((e) => JSON.stringify(e.payload)),
        ],
      );
    }
    await client.query('UPDATE "Session" SET "lastSeq" = "lastSeq" + $2 WHERE id = $1', [main.id, count]);
    await client.query('UPDATE "Run" SET "lastEventNo" = "lastEventNo" + $2 WHERE id = $1', [runId, count]);
    return eventNo0 + count;
  } finally {
    await client.end();
  }
}

/**
 * A finished run of the seeded `demo` agent (it answers at once) with `count` more events
 * appended: the run page of a long run without waiting minutes for one.
 */
export async function longRun(request: APIRequestContext, teamId: string, count: number): Promise<{ runId: string; lastEventNo: number }> {
  const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const demo = agents.find((a) => a.name === 'demo');
  if (!demo) throw new Error(`the seed has no demo agent; agents: ${agents.map((a) => a.name).join(', ')}`);
  const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
    teamId,
    agentId: demo.id,
    goal: `A long run of ${count} events`,
  });
  await expect
    .poll(async () => (await trpcQuery<{ status: string }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId })).status, { timeout: 30_000 })
    .toBe('succeeded');
  return { runId, lastEventNo: await appendEvents(await stackDatabaseUrl(stack.home), runId, count) };
}
