import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { putDataOnScreen, takeDataOffScreen, type ScreenData } from './support/screen-data';
import { stack } from './support/stack';

/**
 * Every page of the dashboard, in the light and the dark theme, with data on screen, through
 * axe-core's WCAG 2.1 A/AA rules: no "serious" or "critical" violation may be left. The theme
 * follows the OS until someone picks one, so each theme is Chromium's emulated
 * `prefers-color-scheme`. Nothing is excluded from the scan, the Scalar API reference included.
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

interface Screen {
  name: string;
  path: (data: ScreenData) => string;
  /** Shown once the page has its data (not just its skeleton). */
  ready: (page: Page) => ReturnType<Page['getByTestId']>;
  /** Whose page it is: the admin's (the default), someone signed out, or a user in no team. */
  as?: 'guest' | 'teamless';
  /** What to open on the page before it is scanned (a dialog, a panel). */
  open?: (page: Page) => Promise<void>;
}

const team = '/t/demo';
const SCREENS: Screen[] = [
  { name: 'sign-in', path: () => '/signin', ready: (p) => p.getByTestId('signin-email'), as: 'guest' },
  { name: 'invitation', path: (d) => `/invite/${d.invitationCode}`, ready: (p) => p.getByTestId('invite-summary'), as: 'guest' },
  { name: 'no teams', path: () => '/', ready: (p) => p.getByTestId('invitation-item').first(), as: 'teamless' },
  { name: 'overview', path: () => team, ready: (p) => p.getByTestId('overview-role') },
  { name: 'runs', path: () => `${team}/runs`, ready: (p) => p.getByTestId('run-row').first() },
  { name: 'new run', path: () => `${team}/runs/new`, ready: (p) => p.getByTestId('composer-form') },
  {
    name: 'new run: files from a repository',
    path: () => `${team}/runs/new`,
    ready: (p) => p.getByTestId('workspace-git-url'),
    open: async (p) => {
      await p.getByTestId('workspace-choice-git').check();
    },
  },
  { name: 'run (finished)', path: (d) => `${team}/runs/${d.finishedRunId}`, ready: (p) => p.getByTestId('timeline-item').first() },
  { name: 'run: Files tab', path: (d) => `${team}/runs/${d.finishedRunId}?tab=files`, ready: (p) => p.getByTestId('files-panel') },
  {
    name: 'run: fork dialog',
    path: (d) => `${team}/runs/${d.finishedRunId}`,
    ready: (p) => p.getByTestId('fork-dialog'),
    open: async (p) => {
      await p.getByTestId('timeline-item').first().waitFor();
      await p.locator('[data-testid="fork-from-here"][aria-disabled="false"]').first().click();
    },
  },
  { name: 'run (waiting on approval)', path: (d) => `${team}/runs/${d.waitingRunId}`, ready: (p) => p.getByTestId('timeline-item').first() },
  { name: 'approvals', path: () => `${team}/approvals`, ready: (p) => p.getByTestId('approval-item').first() },
  {
    name: 'keyboard shortcuts (?)',
    path: () => `${team}/approvals`,
    ready: (p) => p.getByTestId('shortcuts-help'),
    open: async (p) => {
      await p.locator('html[data-shortcuts="ready"]').waitFor({ state: 'attached' });
      await p.getByTestId('approval-item').first().waitFor();
      await p.keyboard.press('?');
    },
  },
  { name: 'audit', path: () => `${team}/audit`, ready: (p) => p.getByTestId('audit-row').first() },
  { name: 'costs', path: () => `${team}/costs`, ready: (p) => p.getByTestId('costs-top-runs') },
  { name: 'run costs', path: (d) => `${team}/costs/${d.finishedRunId}`, ready: (p) => p.getByTestId('run-cost-calls') },
  { name: 'agents', path: () => `${team}/agents`, ready: (p) => p.getByTestId('agent-row').first() },
  { name: 'new agent', path: () => `${team}/agents/new`, ready: (p) => p.getByTestId('agent-name') },
  { name: 'agent', path: (d) => `${team}/agents/${d.agentId}`, ready: (p) => p.getByTestId('agent-name') },
  { name: 'skills', path: () => `${team}/skills`, ready: (p) => p.getByTestId('skill-row').first() },
  { name: 'new skill', path: () => `${team}/skills/new`, ready: (p) => p.getByTestId('skill-instructions-preview') },
  { name: 'skill', path: (d) => `${team}/skills/${d.skillId}`, ready: (p) => p.getByTestId('skill-file').first() },
  { name: 'schedules', path: () => `${team}/schedules`, ready: (p) => p.getByTestId('schedule-row-last-outcome').first() },
  {
    name: 'new schedule',
    path: () => `${team}/schedules`,
    ready: (p) => p.getByTestId('schedule-form'),
    open: async (p) => {
      await p.getByTestId('schedule-new').click();
    },
  },
  { name: 'schedule', path: (d) => `${team}/schedules/${d.scheduleId}`, ready: (p) => p.getByTestId('schedule-tick').first() },
  { name: 'triggers', path: () => `${team}/triggers`, ready: (p) => p.getByTestId('trigger-row').first() },
  {
    name: 'new trigger',
    path: () => `${team}/triggers`,
    ready: (p) => p.getByTestId('trigger-form'),
    open: async (p) => {
      await p.getByTestId('trigger-new').click();
    },
  },
  { name: 'trigger', path: (d) => `${team}/triggers/${d.triggerId}`, ready: (p) => p.getByTestId('trigger-delivery').first() },
  { name: 'graphs', path: () => `${team}/graphs`, ready: (p) => p.getByTestId('graph-row').first() },
  { name: 'new graph', path: () => `${team}/graphs/new`, ready: (p) => p.getByTestId('graph-canvas') },
  { name: 'graph', path: (d) => `${team}/graphs/${d.graphId}`, ready: (p) => p.getByTestId('graph-canvas').locator('.react-flow__node').first() },
  { name: 'graph run', path: (d) => `${team}/graphs/runs/${d.graphRunId}`, ready: (p) => p.getByTestId('graph-live') },
  { name: 'policies', path: () => `${team}/policies`, ready: (p) => p.getByTestId('policy-active') },
  { name: 'endpoints', path: () => `${team}/endpoints`, ready: (p) => p.getByTestId('endpoints-table') },
  { name: 'settings: members', path: () => `${team}/settings/members`, ready: (p) => p.getByTestId('invitation-row').first() },
  { name: 'settings: tokens', path: () => `${team}/settings/tokens`, ready: (p) => p.getByTestId('token-row').first() },
  { name: 'settings: secrets', path: () => `${team}/settings/secrets`, ready: (p) => p.getByTestId('secrets-table') },
  { name: 'settings: webhooks', path: () => `${team}/settings/webhooks`, ready: (p) => p.getByTestId('webhook-row').first() },
  { name: 'settings: webhook', path: (d) => `${team}/settings/webhooks/${d.webhookId}`, ready: (p) => p.getByTestId('delivery-row').first() },
  { name: 'settings: sandbox', path: () => `${team}/settings/sandbox`, ready: (p) => p.getByTestId('sandbox-panel') },
  { name: 'settings: API reference', path: () => `${team}/settings/api`, ready: (p) => p.getByTestId('api-reference').locator('.scalar-app').first() },
  { name: 'settings: account', path: () => `${team}/settings/account`, ready: (p) => p.getByTestId('change-password-form') },
];

/** One line per violation: rule, impact, what it is about, and the selectors of the elements. */
function describeViolations(where: string, violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`);
      return `${where}: ${v.id} (${v.impact}) ${v.help}\n${nodes.join('\n')}`;
    })
    .join('\n');
}

let data: ScreenData;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: stack.baseURL });
  try {
    data = await putDataOnScreen(request);
  } finally {
    await request.dispose();
  }
});

test.afterAll(async ({ playwright }) => {
  if (!data) return;
  const request = await playwright.request.newContext({ baseURL: stack.baseURL });
  try {
    await takeDataOffScreen(request, data);
  } finally {
    await request.dispose();
  }
});

/** Signs in the user of no team, who lands on "No teams yet" (not a team's dashboard). */
async function signInTeamless(page: Page): Promise<void> {
  await page.goto('/signin');
  await page.getByTestId('signin-email').fill(data.teamless.email);
  await page.getByTestId('signin-password').fill(data.teamless.password);
  await page.getByTestId('signin-password').press('Enter');
  await expect(page.getByTestId('no-teams')).toBeVisible();
}

/** Opens the screen, waits for its data and returns the blocking violations, described. */
async function scan(page: Page, screen: Screen, theme: 'light' | 'dark'): Promise<string[]> {
  await page.goto(screen.path(data));
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  await screen.open?.(page);
  await expect(screen.ready(page)).toBeVisible();
  // No panel still loading: the dashboard's placeholders read "Loading…" or "Loading the policy…"
  // (an agent's own words in the timeline, "Loading the shell.", are data).
  await expect(page.locator('p, td').filter({ hasText: /^Loading[^.]*…$/ })).toHaveCount(0);
  // Colour transitions (hover, theme) must have settled before colours are measured.
  await page.waitForTimeout(300);
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const blocking = results.violations.filter((v) => v.impact && BLOCKING.has(v.impact));
  return blocking.length ? [describeViolations(`${screen.name} [${theme}] ${page.url()}`, blocking)] : [];
}

// One test per theme, one step per page: a page with violations does not stop the others from
// being checked, so a failure lists everything there is to fix.
for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test(`every page: no serious or critical WCAG 2.1 AA violation`, async ({ page, browser }) => {
      test.setTimeout(SCREENS.length * 20_000);
      const contexts = await Promise.all(
        [0, 1].map(() => browser.newContext({ baseURL: stack.baseURL, colorScheme: theme, storageState: { cookies: [], origins: [] } })),
      );
      const [guest, teamless] = await Promise.all(contexts.map((context) => context.newPage()));
      await signInTeamless(teamless!);
      const pages = { guest: guest!, teamless: teamless! };
      try {
        for (const screen of SCREENS) {
          await test.step(screen.name, async () => {
            const found = await scan(screen.as ? pages[screen.as] : page, screen, theme).catch((error: unknown) => [
              `${screen.name} [${theme}]: the page did not show its data: ${error instanceof Error ? error.message : String(error)}`,
            ]);
            expect.soft(found.length, found.join('\n')).toBe(0);
          });
        }
      } finally {
        await Promise.all(contexts.map((context) => context.close()));
      }
    });
  });
}
