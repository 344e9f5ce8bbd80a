import { release } from 'node:os';
import type { ToolSpec } from '@looplane/engine';
import { expect, test } from './support/fixtures';
import { scriptedAgent, seededToolSpecs } from './support/scripted-agent';
import { stack, unique } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * The isolation levels on the real stack: `looplane start`'s worker runs bwrap by default and
 * offers gvisor and microvm (LOOPLANE_SANDBOX_DRIVERS in global-setup.ts) for calls that need them. The demo agents succeed on each driver, watched in the
 * browser, and each call runs under the kernel of the driver its template asked for.
 */
const RUN_TIMEOUT = 90_000;
const DRIVERS = ['bwrap', 'gvisor', 'microvm'] as const;
/** What answers `cat /proc/version` on each driver. */
const KERNEL = { bwrap: "the host's kernel", gvisor: "gVisor's kernel", microvm: "the microVM guest's kernel" } as const;

interface AgentView {
  id: string;
  name: string;
  endpoint: { id: string };
  systemPrompt: string;
  tools: ToolSpec[];
}

interface SandboxView {
  workers: Array<{ workerId: string; drivers: Array<{ driver: string; works: boolean; offered: boolean }> }>;
}

test('Settings → Sandbox and the overview show that the worker offers gvisor and microvm next to bwrap', async ({ page, request, demoTeam }) => {
  let workerId = '';
  await expect
    .poll(
      async () => {
        const view = await trpcQuery<SandboxView>(request, 'system.sandbox', stack.bootstrapToken, { teamId: demoTeam.id });
        const worker = view.workers.find((w) => ['gvisor', 'microvm'].every((name) => w.drivers.some((d) => d.driver === name && d.offered && d.works)));
        workerId = worker?.workerId ?? '';
        return workerId !== '';
      },
      { timeout: 120_000 },
    )
    .toBe(true);
  await page.goto('/t/demo/settings/sandbox');
  const gvisor = page.getByTestId(`sandbox-worker-${workerId}`).getByTestId('sandbox-driver-gvisor');
  await expect(gvisor).toHaveAttribute('data-works', 'true');
  await expect(gvisor).toHaveAttribute('data-offered', 'true');
  await expect(gvisor).toContainText('offered');
  await expect(page.getByTestId(`sandbox-worker-${workerId}`).getByTestId('sandbox-driver-microvm')).toHaveAttribute('data-works', 'true');
  await page.goto('/t/demo');
  await expect(page.getByTestId('overview-workers').getByTestId('overview-worker-drivers').first()).toContainText('bwrap · gvisor · microvm');
});

for (const driver of DRIVERS) {
  test(`the demo-steps agent succeeds on ${driver}, watched in the browser`, async ({ page, request, demoTeam }) => {
    test.setTimeout(RUN_TIMEOUT + 30_000);
    const agents = await trpcQuery<AgentView[]>(request, 'agents.list', stack.bootstrapToken, { teamId: demoTeam.id });
    const demo = agents.find((a) => a.name === 'demo-steps');
    if (!demo) throw new Error('the seeded demo-steps agent is missing');
    const copy = await trpcMutation<{ id: string }>(request, 'agents.create', stack.bootstrapToken, {
      teamId: demoTeam.id,
      name: unique(`e2e-steps-${driver}`),
      endpointId: demo.endpoint.id,
      systemPrompt: demo.systemPrompt,
      tools: demo.tools,
      sandbox: { driver },
    });
    await page.goto(`/t/demo/runs/new?agent=${copy.id}`);
    await expect(page.getByTestId('composer-agent')).toHaveValue(copy.id);
    await page.getByTestId('composer-goal').fill(`Walk through the steps on ${driver}`);
    await page.getByTestId('composer-submit').click();
    await expect(page).toHaveURL(/\/t\/demo\/runs\/[A-Za-z0-9_-]+$/);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: RUN_TIMEOUT });
    await expect(page.locator('[data-testid="timeline-item"][data-kind="tool"]').first()).toBeVisible();
    await expect(page.locator('[data-testid="timeline-item"][data-kind="tool"]').filter({ hasText: 'not run' })).toHaveCount(0);
  });

  test(`a template asking for ${driver} runs its shell calls under ${KERNEL[driver]}`, async ({ page, request, demoTeam }) => {
    test.setTimeout(RUN_TIMEOUT + 30_000);
    const agent = await scriptedAgent(request, demoTeam.id, {
      name: `e2e-kernel-${driver}`,
      script: [
        { say: 'Loading the shell.', calls: [{ tool: 'load_tools', args: { names: ['shell'] } }] },
        // `cat` is a read-only command the demo policy allows; /proc/version names the kernel that answers.
        { calls: [{ tool: 'shell', args: { command: 'cat /proc/version' } }] },
        { say: 'Done.' },
      ],
      tools: await seededToolSpecs(request, demoTeam.id, ['shell']),
      sandbox: { driver },
    });
    await page.goto(`/t/demo/runs/new?agent=${agent.agentId}`);
    await page.getByTestId('composer-goal').fill('Which kernel?');
    await page.getByTestId('composer-submit').click();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: RUN_TIMEOUT });
    const tool = page.locator('[data-testid="timeline-item"][data-kind="tool"]').filter({ hasText: /Linux version \d/ });
    await expect(tool).toHaveCount(1);
    if (driver === 'bwrap') await expect(tool).toContainText(`Linux version ${release()}`);
    else await expect(tool).not.toContainText(`Linux version ${release()} `);
  });
}
