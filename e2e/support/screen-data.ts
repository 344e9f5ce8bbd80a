import { expect, type APIRequestContext } from '@playwright/test';
import { inviteAndSignUp } from './invitations';
import { stack, unique } from './stack';
import { trpcMutation, trpcQuery } from './trpc-api';

const RUN_TIMEOUT = 60_000;

/** What the demo team shows once `putDataOnScreen` ran: the ids the detail pages need. */
export interface ScreenData {
  teamId: string;
  /** A finished run of the seeded `demo-steps` agent (timeline, files, costs). */
  finishedRunId: string;
  /** A `demo-cleanup` run parked on its approval (a pending item in the inbox). */
  waitingRunId: string;
  /** A run of the seeded demo graph (the live graph page). */
  graphRunId: string;
  graphId: string;
  agentId: string;
  webhookId: string;
  /** A skill of the library, a schedule with a tick (its run started now) and a trigger with a refused delivery. */
  skillId: string;
  scheduleId: string;
  triggerId: string;
  /** The code of a pending invitation (the invite landing page). */
  invitationCode: string;
  /** Someone who was removed from the team and is invited again: the "No teams yet" page. */
  teamless: { email: string; password: string };
}

interface Named {
  id: string;
  name: string;
}

function byName<T extends Named>(items: T[], name: string, what: string): T {
  const found = items.find((item) => item.name === name);
  if (!found) throw new Error(`the seed has no ${name} ${what}; found: ${items.map((item) => item.name).join(', ')}`);
  return found;
}

async function runStatus(request: APIRequestContext, teamId: string, runId: string): Promise<string> {
  const run = await trpcQuery<{ status: string; waitReason: string | null }>(request, 'runs.get', stack.bootstrapToken, { teamId, runId });
  return run.waitReason ? `${run.status}/${run.waitReason}` : run.status;
}

/**
 * Fills every page of the demo team with something to look at, through the API as any script with
 * a token would: a webhook (whose deliveries to a closed port fail, so its page lists attempts), a
 * finished run, a run waiting on an approval, a graph run, a secret, a token, a pending
 * invitation, and a user in no team with an invitation to accept. An empty table would hide the colours of the rows an accessibility check must see.
 */
export async function putDataOnScreen(request: APIRequestContext): Promise<ScreenData> {
  const me = await trpcQuery<{ teams: Array<{ id: string; slug: string }> }>(request, 'me', stack.bootstrapToken);
  const team = me.teams.find((t) => t.slug === 'demo');
  if (!team) throw new Error('the bootstrap token does not see the demo team');
  const teamId = team.id;
  const token = stack.bootstrapToken;

  const webhook = await trpcMutation<{ webhook: { id: string } }>(request, 'webhooks.create', token, {
    teamId,
    // Port 9 (discard) is closed on the test host: every delivery fails and is listed with its attempts.
    url: 'http://127.0.0.1:9/hooks',
    events: ['run.finished', 'approval.requested'],
    description: unique('e2e a11y deliveries'),
  });
  await trpcMutation(request, 'secrets.create', token, { teamId, name: `A11Y_${Date.now().toString(36).toUpperCase()}`, value: 'not-a-real-secret' });
  await trpcMutation(request, 'tokens.create', token, { teamId, name: unique('e2e-a11y-token'), role: 'viewer', expiresInDays: 30 });
  const invited = await trpcMutation<{ code: string }>(request, 'teams.invite', token, { teamId, email: `${unique('e2e-a11y')}@example.test`, role: 'viewer' });
  const teamless = { email: `${unique('e2e-a11y-teamless')}@example.test`, password: 'teamless password 1' };
  await inviteAndSignUp(request, teamId, teamless.email, 'viewer', teamless.password);
  const members = await trpcQuery<Array<{ userId: string; email: string }>>(request, 'teams.members', token, { teamId });
  const member = members.find((m) => m.email === teamless.email);
  if (!member) throw new Error(`${teamless.email} is not a member after signing up`);
  await trpcMutation(request, 'teams.removeMember', token, { teamId, userId: member.userId });
  await trpcMutation(request, 'teams.invite', token, { teamId, email: teamless.email, role: 'operator' });

  const agents = await trpcQuery<Named[]>(request, 'agents.list', token, { teamId });
  const steps = byName(agents, 'demo-steps', 'agent');
  const cleanup = byName(agents, 'demo-cleanup', 'agent');
  const graphs = await trpcQuery<Named[]>(request, 'graphs.list', token, { teamId });
  const graph = byName(graphs, 'demo-swarm', 'graph');

  const finished = await trpcMutation<{ runId: string }>(request, 'runs.create', token, { teamId, agentId: steps.id, goal: '/steps accessibility' });
  const waiting = await trpcMutation<{ runId: string }>(request, 'runs.create', token, { teamId, agentId: cleanup.id, goal: 'Clean the build directory' });
  const graphRun = await trpcMutation<{ runId: string }>(request, 'runs.create', token, { teamId, graphId: graph.id, goal: 'Ship dark mode' });

  const alwaysOn = await putAlwaysOnOnScreen(request, teamId, byName(agents, 'demo', 'agent').id);

  await expect.poll(() => runStatus(request, teamId, finished.runId), { timeout: RUN_TIMEOUT }).toBe('succeeded');
  await expect.poll(() => runStatus(request, teamId, waiting.runId), { timeout: RUN_TIMEOUT }).toBe('waiting/approval');

  return {
    teamId,
    finishedRunId: finished.runId,
    waitingRunId: waiting.runId,
    graphRunId: graphRun.runId,
    graphId: graph.id,
    agentId: steps.id,
    webhookId: webhook.webhook.id,
    ...alwaysOn,
    invitationCode: invited.code,
    teamless,
  };
}

/** Ends what `putDataOnScreen` left running or retrying, so later specs start from a quiet team. */
export async function takeDataOffScreen(request: APIRequestContext, data: ScreenData): Promise<void> {
  const token = stack.bootstrapToken;
  for (const runId of [data.waitingRunId, data.graphRunId]) {
    const status = await runStatus(request, data.teamId, runId);
    if (!['succeeded', 'failed', 'cancelled'].includes(status)) await trpcMutation(request, 'runs.cancel', token, { teamId: data.teamId, runId });
  }
  await trpcMutation(request, 'webhooks.delete', token, { teamId: data.teamId, webhookId: data.webhookId });
  await trpcMutation(request, 'schedules.delete', token, { teamId: data.teamId, scheduleId: data.scheduleId });
  await trpcMutation(request, 'triggers.delete', token, { teamId: data.teamId, triggerId: data.triggerId });
  await trpcMutation(request, 'skills.archive', token, { teamId: data.teamId, skillId: data.skillId });
}

/**
 * The always-on pages' data: a skill with Markdown and a file, a schedule that fires once a year
 * with one tick (run now, an agent that answers at once), and a trigger with one delivery refused
 * for a wrong secret (nothing starts).
 */
async function putAlwaysOnOnScreen(
  request: APIRequestContext,
  teamId: string,
  agentId: string,
): Promise<Pick<ScreenData, 'skillId' | 'scheduleId' | 'triggerId'>> {
  const token = stack.bootstrapToken;
  const skill = await trpcMutation<{ id: string }>(request, 'skills.create', token, {
    teamId,
    name: unique('a11y-skill').toLowerCase(),
    description: 'Drafts a quote from the catalogue',
    instructions: '# Quotes\n\n- look up **prices**\n- apply `rules.md`\n\n```\ntotal = sum(items)\n```\n',
    files: [{ path: 'rules.md', content: '10% above 100 units' }],
  });
  const schedule = await trpcMutation<{ id: string }>(request, 'schedules.create', token, {
    teamId,
    name: unique('e2e a11y schedule'),
    agentId,
    cron: '0 3 1 1 *',
    timezone: 'Europe/Berlin',
    goal: 'Summarise the inbox as of {{scheduledAt}}',
  });
  await trpcMutation(request, 'schedules.runNow', token, { teamId, scheduleId: schedule.id });
  const trigger = await trpcMutation<{ trigger: { id: string; path: string } }>(request, 'triggers.create', token, {
    teamId,
    name: unique('e2e a11y trigger'),
    target: { type: 'start_run', agentId, goalTemplate: 'Answer {{payload.text}}' },
    auth: 'bearer',
  });
  const refused = await request.post(trigger.trigger.path, { headers: { Authorization: 'Bearer lltr_wrong' }, data: { text: 'hello' } });
  expect(refused.status()).toBe(401);
  return { skillId: skill.id, scheduleId: schedule.id, triggerId: trigger.trigger.id };
}
