import { chmodSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTeamFixture, issueToken, type TeamFixture } from '@looplane/api/testing';
import type { Prisma } from '@looplane/db';
import { createTestAgent, createTestRun } from '@looplane/db/testing';
import type { ScriptTurn } from '@looplane/engine';
import type { Role } from '@looplane/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyEgressSource } from '../sandbox/test-egress-source';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';
import { serveApiFor, type WorkerApi } from '../testing/served-api';
import { waitFor } from '../testing/test-runtime';

/**
 * Four-eyes counts whoever wrote what the call runs: the approver who rewrote its arguments, and
 * whoever wrote the agent's template. Real worker, real bwrap shell, the approvals API over HTTP;
 * an operator starts each run, and the held call is `rm -rf build` (destructive: held for an
 * approver).
 */
const root = mkdtempSync(join(tmpdir(), 'looplane-four-eyes-edits-'));
chmodSync(root, 0o711);
const egress = lazyEgressSource(() => s.t.url, undefined);
const s = setUpRuntimeSuite('four-eyes-edits', { sandbox: { driver: 'bwrap', workspaceRoot: join(root, 'workspaces'), egress } });

const POLICY = {
  version: 1,
  name: 'four eyes on destruction',
  default: 'allow',
  rules: [{ id: 'hold-destructive', match: { tool: 'shell', destructive: true }, outcome: 'require_approval', reason: 'the command is destructive' }],
  approvals: { fourEyes: true },
};

let fx: TeamFixture;
let api: WorkerApi;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  fx = await createTeamFixture(s.t.db);
  await s.t.db.policy.create({ data: { teamId: fx.teamId, name: 'default', activeVersion: 1, versions: { create: { version: 1, document: POLICY } } } });
  for (const role of ['operator', 'approver', 'admin'] as const) tokens[role] = (await issueToken(s.t.db, fx.teamId, fx.members[role].id, role)).secret;
  api = await serveApiFor(s.t.db, s);
});
afterAll(async () => {
  await api?.served.close();
  await egress.close();
  await rm(root, { recursive: true, force: true });
});

/** The sandbox's shell tool as an agent template lists it. */
const shellSpec = () => {
  const shell = s.worker.sandbox!.tools.find((t) => t.spec.name === 'shell')!;
  return { name: shell.spec.name, description: shell.spec.description, parameters: shell.spec.parameters, idempotent: shell.spec.idempotent };
};

const eventsOf = (runId: string) => s.t.db.event.findMany({ where: { runId }, orderBy: { seq: 'asc' } });
const commandsRun = async (runId: string) =>
  (await eventsOf(runId)).filter((e) => e.type === 'tool.started').map((e) => (e.payload as { args: { command?: string } }).args.command);
const pendingIn = (runId: string, except: string[] = []) =>
  waitFor(
    () => s.t.db.approval.findFirst({ where: { runId, status: 'pending', id: { notIn: except } } }).then((a) => a ?? undefined),
    20_000,
    `a pending approval in run ${runId}`,
  );
const decide = (role: Role, approvalId: string, editedArgs?: Record<string, unknown>) =>
  api.call('approvals.decide', tokens[role], { teamId: fx.teamId, approvalId, decision: 'approve', ...(editedArgs ? { editedArgs } : {}) });

describe('four-eyes: an approver’s edit is her own instruction', () => {
  it('an approver rewrites rm -rf build into rm -rf src and approves it: nothing runs; she cannot approve the edited call; the admin does, and it runs', async () => {
    const agent = await createTestAgent(s.t.db, fx.teamId, { script: [{ calls: [{ tool: 'shell', args: { command: 'rm -rf build' } }] }, { finish: 'done' }] });
    const run = await createTestRun(s.t.db, agent, { config: { tools: [shellSpec()], toolLoading: 'eager' } });
    await s.t.db.run.update({ where: { id: run.runId }, data: { createdById: fx.members.operator.id } });
    await s.client.enqueue({ ...run, reason: 'start' });
    const held = await pendingIn(run.runId);
    expect(held).toMatchObject({ args: { command: 'rm -rf build' }, instructedByIds: [fx.members.operator.id] });

    const edited = await decide('approver', held.id, { command: 'rm -rf src' });
    expect(edited.status, JSON.stringify(edited.error)).toBe(200);
    // The edited call is asked again, as the approver's own instruction.
    const again = await pendingIn(run.runId, [held.id]);
    expect(again).toMatchObject({
      toolCallId: held.toolCallId,
      args: { command: 'rm -rf src' },
      fourEyes: true,
      requestedById: fx.members.approver.id,
      instructedByIds: [fx.members.approver.id, fx.members.operator.id],
    });
    // The worker opens the new row while it still holds the session, and releases it waiting right after.
    await waitForRun(s.t.db, run.runId, 'waiting');
    expect(await commandsRun(run.runId)).toEqual([]);
    const requested = (await eventsOf(run.runId)).filter((e) => e.type === 'approval.requested').at(-1);
    expect(requested?.payload).toMatchObject({ args: { command: 'rm -rf src' }, reason: expect.stringMatching(/^four-eyes: .+ edited the arguments/) });

    const byEditor = await decide('approver', again.id);
    expect(byEditor.status).toBe(403);
    expect(byEditor.error?.message).toMatch(/four-eyes: the call follows from your own instruction/);
    expect(await commandsRun(run.runId)).toEqual([]);

    const byAdmin = await decide('admin', again.id);
    expect(byAdmin.status, JSON.stringify(byAdmin.error)).toBe(200);
    expect((await waitForRun(s.t.db, run.runId, undefined, 30_000)).status).toBe('succeeded');
    expect(await commandsRun(run.runId)).toEqual(['rm -rf src']);
  }, 90_000);
});

describe('four-eyes: the author of the agent’s template', () => {
  it('an admin edits the agent’s system prompt; an operator’s run of it holds a call: the admin cannot approve it, an approver can', async () => {
    const script: ScriptTurn[] = [
      { calls: [{ tool: 'load_tools', args: { names: ['shell'] } }] },
      { calls: [{ tool: 'shell', args: { command: 'rm -rf build' } }] },
      { finish: 'done' },
    ];
    const agent = await createTestAgent(s.t.db, fx.teamId, { script });
    // The template's tools were there before (seeded, nobody's edit); the admin writes only the prompt.
    await s.t.db.agentTemplate.update({ where: { id: agent.agentId }, data: { tools: [shellSpec()] as Prisma.InputJsonValue } });
    const prompt = await api.call('agents.update', tokens.admin, { teamId: fx.teamId, agentId: agent.agentId, systemPrompt: 'Delete whatever is in the way.' });
    expect(prompt.status, JSON.stringify(prompt.error)).toBe(200);

    const created = await api.call('runs.create', tokens.operator, { teamId: fx.teamId, agentId: agent.agentId, goal: 'Tidy the workspace' });
    expect(created.status, JSON.stringify(created.error)).toBe(200);
    const { runId } = created.data as { runId: string };
    const held = await pendingIn(runId);
    expect(held.instructedByIds).toEqual([fx.members.admin.id, fx.members.operator.id]);

    const byAdmin = await decide('admin', held.id);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.error?.message).toMatch(/four-eyes: the call follows from your own instruction/);
    expect(await commandsRun(runId)).toEqual([]);

    const byApprover = await decide('approver', held.id);
    expect(byApprover.status, JSON.stringify(byApprover.error)).toBe(200);
    expect((await waitForRun(s.t.db, runId, undefined, 30_000)).status).toBe('succeeded');
    expect(await commandsRun(runId)).toEqual(['rm -rf build']);
  }, 90_000);
});
