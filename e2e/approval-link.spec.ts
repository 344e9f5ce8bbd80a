import { startReceiver, verifyReceived, type VerifiedWebhook } from '@looplane/webhooks/testing';
import { expect, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * The link an `approval.requested` webhook carries, followed as a chat or mail integration would
 * send a person: the worker delivers the event (signed, verified here with `standardwebhooks`) to
 * a receiver on 127.0.0.1, and its `url` opens that approval at the top of the inbox, ready to
 * decide, whatever else waits there.
 */
const RUN_TIMEOUT = 60_000;

test('an approval.requested webhook links straight to the decision in the inbox', async ({ page, request, demoTeam }) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  const teamId = demoTeam.id;
  const receiver = await startReceiver();
  const hook = await trpcMutation<{ webhook: { id: string }; secret: string }>(request, 'webhooks.create', stack.bootstrapToken, {
    teamId,
    url: receiver.url,
    events: ['approval.requested'],
    description: unique('e2e approval links'),
  });
  try {
    const agents = await trpcQuery<Array<{ id: string; name: string }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
    const agent = agents.find((a) => a.name === 'demo-cleanup');
    if (!agent) throw new Error('the seed has no demo-cleanup agent');
    const { runId } = await trpcMutation<{ runId: string }>(request, 'runs.create', stack.bootstrapToken, {
      teamId,
      agentId: agent.id,
      goal: unique('Clean up, asked by a webhook'),
    });

    // The run asks for `rm -rf build`; its approval.requested delivery names the run and links to the approval.
    let event: VerifiedWebhook | undefined;
    await expect
      .poll(
        () => {
          event = receiver.requests.map((r) => verifyReceived(r, hook.secret)).find((e) => e.type === 'approval.requested' && e.data.runId === runId);
          return event !== undefined;
        },
        { timeout: RUN_TIMEOUT },
      )
      .toBe(true);
    const { approvalId, url, runUrl } = event!.data as { approvalId: string; url: string; runUrl: string };
    // Links are under the dashboard's public URL (NEXTAUTH_URL: `looplane start` names it localhost,
    // while this suite's cookies are for 127.0.0.1, so the same port and path are opened here).
    const link = new URL(url);
    expect(link.port).toBe(new URL(stack.baseURL).port);
    expect(`${link.pathname}${link.search}`).toBe(`/t/${demoTeam.slug}/approvals?approval=${approvalId}`);
    expect(new URL(runUrl).pathname).toBe(`/t/${demoTeam.slug}/runs/${runId}`);

    // The link opens the approval above the inbox, once, with its call and the decision controls.
    await page.goto(`${link.pathname}${link.search}`);
    const linked = page.getByTestId('approval-linked');
    await expect(linked).toHaveAttribute('data-approval-id', approvalId);
    const card = linked.getByTestId('approval-item');
    await expect(card).toHaveAttribute('data-approval-id', approvalId);
    await expect(card).toHaveAttribute('data-status', 'pending');
    await expect(card.getByTestId('approval-command')).toHaveText('$ rm -rf build');
    await expect(page.locator(`[data-testid="approval-item"][data-approval-id="${approvalId}"]`)).toHaveCount(1);

    await card.getByTestId('approval-reject').click();
    await expect(card).toHaveAttribute('data-status', 'rejected');
    await expect
      .poll(async () => (await trpcQuery<{ status: string }>(request, 'approvals.get', stack.bootstrapToken, { teamId, approvalId })).status)
      .toBe('rejected');

    // A link to an approval this team does not have says so, and the inbox still works below it.
    await page.goto(`/t/${demoTeam.slug}/approvals?approval=cmnosuchapproval00000000`);
    await expect(page.getByTestId('approval-linked-error')).toContainText('No such approval in this team');
    await expect(page.getByTestId('approvals-filter')).toBeVisible();
  } finally {
    await trpcMutation(request, 'webhooks.delete', stack.bootstrapToken, { teamId, webhookId: hook.webhook.id });
    await receiver.close();
  }
});
