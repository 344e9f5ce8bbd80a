import { describe, expect, it } from 'vitest';
import { problemOf } from '../testing/rest-client';
import { restTestbed } from '../testing/rest-testbed';
import { agent as agentSchema } from '../rest/schemas/agents.schemas';

/** `persistent` on agent templates (tRPC and REST), and what a run of a persistent agent is made with. */
const rest = restTestbed();
const tb = rest.tb;

describe('persistent agents', () => {
  it('agents.create defaults to not persistent; create and update round-trip the flag, audited', async () => {
    const api = await tb.as('operator');
    const plain = await api.agents.create({ teamId: tb.fx.teamId, name: 'plain-agent', endpointId: tb.agent.endpointId });
    expect(plain.persistent).toBe(false);
    const inbox = await api.agents.create({ teamId: tb.fx.teamId, name: 'inbox-watcher', endpointId: tb.agent.endpointId, persistent: true });
    expect(inbox.persistent).toBe(true);
    expect(await api.agents.get({ teamId: tb.fx.teamId, agentId: inbox.id })).toMatchObject({ persistent: true, version: 1 });
    expect((await tb.db.auditLog.findFirstOrThrow({ where: { targetId: inbox.id, action: 'agent.created' } })).data).toMatchObject({ persistent: true });

    const off = await api.agents.update({ teamId: tb.fx.teamId, agentId: inbox.id, persistent: false });
    expect(off).toMatchObject({ persistent: false, version: 2 });
    expect((await tb.db.auditLog.findFirstOrThrow({ where: { targetId: inbox.id, action: 'agent.updated' } })).data).toMatchObject({
      changed: ['persistent'],
    });
    expect((await tb.db.agentTemplate.findUniqueOrThrow({ where: { id: inbox.id } })).persistent).toBe(false);
    await expect(api.agents.update({ teamId: tb.fx.teamId, agentId: inbox.id, persistent: 'yes' as unknown as boolean })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await tb.db.agentTemplate.findUniqueOrThrow({ where: { id: inbox.id } })).version).toBe(2);
  });

  it('REST: GET shows the flag, PATCH sets it; a non-boolean is 422 and changes nothing', async () => {
    const { agentId } = tb.agent;
    expect((await rest.as('viewer').ok('getAgent', agentSchema, { params: { agentId } })).persistent).toBe(false);
    const patched = await rest.as('operator').ok('updateAgent', agentSchema, { params: { agentId }, body: { persistent: true } });
    expect(patched.persistent).toBe(true);
    expect((await rest.as('viewer').ok('getAgent', agentSchema, { params: { agentId } })).persistent).toBe(true);
    const bad = await rest.as('operator').call('updateAgent', { params: { agentId }, body: { persistent: 'always' } });
    expect(problemOf(bad, 422).errors?.[0]).toMatchObject({ in: 'body', path: 'persistent' });
    const back = await rest.as('operator').ok('updateAgent', agentSchema, { params: { agentId }, body: { persistent: false } });
    expect(back).toMatchObject({ persistent: false, version: patched.version + 1 });
  });

  it('a run copies its agent’s flag onto the run and into the engine config; other runs’ configs stay without it', async () => {
    const api = await tb.as('operator');
    const watcher = await api.agents.create({ teamId: tb.fx.teamId, name: 'mailbox', endpointId: tb.agent.endpointId, persistent: true });
    const plain = await api.agents.create({ teamId: tb.fx.teamId, name: 'one-shot', endpointId: tb.agent.endpointId });
    const persistentRun = await api.runs.create({ teamId: tb.fx.teamId, agentId: watcher.id, goal: 'Watch the inbox' });
    const plainRun = await api.runs.create({ teamId: tb.fx.teamId, agentId: plain.id, goal: 'Answer once' });
    const read = (runId: string) => tb.db.run.findUniqueOrThrow({ where: { id: runId }, include: { sessions: true } });
    const [p, q] = [await read(persistentRun.runId), await read(plainRun.runId)];
    expect(p.persistent).toBe(true);
    expect(p.sessions[0]!.config).toMatchObject({ persistent: true });
    expect(q.persistent).toBe(false);
    expect(q.sessions[0]!.config).not.toHaveProperty('persistent');
  });
});
