import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit, type AuditActor } from '../audit/audit.repository';
import { createPgPool, type PgPool } from '../runs/pg-pool';
import { createTestAgent, createTestRun, createTestTeam, type TestAgent } from '../runs/testing/run-fixtures';
import { instructionGivers } from './instruction-givers';

/**
 * Who a held call's instructions came from, as the worker records it on the approval row: besides
 * the lineage's messages and forks (end to end in apps/worker/src/runtime/four-eyes.int.test.ts),
 * whoever edited a call's arguments, the authors of the agent template the run was built from (the
 * last to change each instructing field, read from the audit chain) and whoever changed it during
 * the run, and the author of a graph run's graph version.
 */
let t: TestDatabase;
let pool: PgPool;
let agent: TestAgent;
let n = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  pool = createPgPool(t.url, { max: 2 });
  agent = await createTestAgent(t.db, await createTestTeam(t.db));
});
afterAll(async () => {
  await pool.end();
  await t.drop();
});

const user = async (label: string) => (await t.db.user.create({ data: { email: `${label}-${n++}@givers.test` } })).id;
/** One new user per label, in order. */
const users = async <const L extends readonly string[]>(...labels: L) => (await Promise.all(labels.map(user))) as { [K in keyof L]: string };
const audit = (actor: AuditActor, action: string, targetType: string, targetId: string, data: Record<string, unknown>) =>
  t.db.$transaction((tx) => appendAudit(tx, { teamId: agent.teamId, actor, ip: null, action, targetType, targetId, data }));
const asUser = (userId: string): AuditActor => ({ type: 'user', userId });
const agentUpdated = (actor: AuditActor, version: number, changed: string[]) => audit(actor, 'agent.updated', 'agent', agent.agentId, { changed, version });

describe('instruction givers beyond the lineage’s messages', () => {
  it('counts the author of each instructing field of the version the run was built from, and whoever changed one during the run; not a rename', async () => {
    const [creator, writer, renamer, changer, describer, operator] = await users('creator', 'writer', 'renamer', 'changer', 'describer', 'operator');
    const token = await t.db.apiToken.create({
      data: { teamId: agent.teamId, createdById: writer, name: `t${n++}`, role: 'admin', tokenHash: `h${n++}`, prefix: 'llp_x' },
    });
    await audit(asUser(creator), 'agent.created', 'agent', agent.agentId, { name: 'a' });
    // The prompt, written through the writer's token; then a rename by someone else (version 3).
    await agentUpdated({ type: 'token', tokenId: token.id, userId: writer }, 2, ['systemPrompt']);
    await agentUpdated(asUser(renamer), 3, ['name']);
    const run = await createTestRun(t.db, agent);
    await audit(asUser(operator), 'run.created', 'run', run.runId, { agentId: agent.agentId, agentVersion: 3, sessionId: run.sessionId });

    // The creator still wrote the tools, sandbox, endpoint and slash commands version 3 has.
    expect(await instructionGivers(pool, run.sessionId, 5, operator)).toEqual({ requestedById: writer, instructedByIds: [writer, creator, operator] });

    await agentUpdated(asUser(describer), 4, ['description']);
    await agentUpdated(asUser(changer), 5, ['tools', 'name']);
    expect((await instructionGivers(pool, run.sessionId, 5, operator)).instructedByIds).toEqual([changer, writer, creator, operator]);
  });

  it('for a run whose run.created row names no version (a graph run made before they were recorded), counts the last version recorded before it', async () => {
    const other = await createTestAgent(t.db, agent.teamId);
    const [early, first, second] = await users('early', 'first', 'second');
    const changePrompt = (actor: string, version: number) =>
      audit(asUser(actor), 'agent.updated', 'agent', other.agentId, { changed: ['systemPrompt'], version });
    await audit(asUser(early), 'agent.created', 'agent', other.agentId, {});
    const run = await createTestRun(t.db, other);
    await audit(asUser(early), 'run.created', 'run', run.runId, { graphId: 'g', graphVersion: 1 });
    await changePrompt(first, 2);
    await changePrompt(second, 3);
    // Both prompt changes came during the run: neither is taken for the version it started with.
    expect((await instructionGivers(pool, run.sessionId, 3, null)).instructedByIds).toEqual([second, first, early]);
  });

  it('counts whoever approved a call of the lineage with edited arguments before the call; not a rejection, not a later edit', async () => {
    const fresh = await createTestAgent(t.db, agent.teamId);
    const run = await createTestRun(t.db, fresh);
    const [editor, rejecter, laterEditor, operator] = await users('editor', 'rejecter', 'later', 'operator');
    const row = (requestSeq: number, status: 'approved' | 'rejected', decidedById: string) =>
      t.db.approval.create({
        data: {
          teamId: fresh.teamId,
          runId: run.runId,
          sessionId: run.sessionId,
          requestSeq,
          toolCallId: `call-${requestSeq}`,
          tool: 'shell',
          args: { command: 'rm -rf build' },
          editedArgs: { command: 'rm -rf src' },
          status,
          decidedById,
        },
      });
    await row(3, 'approved', editor);
    await row(4, 'rejected', rejecter);
    await row(9, 'approved', laterEditor);
    expect(await instructionGivers(pool, run.sessionId, 6, operator)).toEqual({ requestedById: editor, instructedByIds: [editor, operator] });
  });

  it('counts the author of the graph version a graph run runs, and of later versions; not of earlier ones', async () => {
    const [first, second, third] = await users('first', 'second', 'third');
    const graph = await t.db.swarmGraph.create({ data: { teamId: agent.teamId, name: `g${n++}`, currentVersion: 3 } });
    for (const [version, createdById] of [
      [1, first],
      [2, second],
      [3, third],
    ] as const) {
      await t.db.graphVersion.create({ data: { graphId: graph.id, version, rootNodeKey: 'root', createdById } });
    }
    const fresh = await createTestAgent(t.db, agent.teamId);
    const run = await createTestRun(t.db, fresh);
    await t.db.run.update({ where: { id: run.runId }, data: { graphId: graph.id, graphVersion: 2 } });
    expect((await instructionGivers(pool, run.sessionId, 2, null)).instructedByIds).toEqual([third, second]);
  });
});
