import type { APIRequestContext } from '@playwright/test';
import { expect, pressShortcut, signIn, test } from './support/fixtures';
import { inviteAndSignUp } from './support/invitations';
import { stack, unique } from './support/stack';
import { trpcMutation, trpcQuery } from './support/trpc-api';

/**
 * The Skills page against the real stack: a skill is written in the Markdown editor (with its
 * preview), saved and edited as versions, a concurrent save is refused with a clear message, it is
 * archived and restored, and an agent is given it (and made persistent) in the agent editor.
 */

interface SkillView {
  id: string;
  name: string;
  description: string;
  version: number;
  files: Array<{ path: string; content: string }>;
  archivedAt: string | null;
}

/** Skill names are lowercase letters, digits, - and _. */
const skillName = (prefix: string) => unique(prefix).toLowerCase();

async function skillByName(request: APIRequestContext, teamId: string, name: string): Promise<SkillView | undefined> {
  const live = await trpcQuery<SkillView[]>(request, 'skills.list', stack.bootstrapToken, { teamId });
  const archived = await trpcQuery<SkillView[]>(request, 'skills.list', stack.bootstrapToken, { teamId, archived: true });
  return [...live, ...archived].find((skill) => skill.name === name);
}

test('an operator writes a skill with its preview, edits it as versions, meets a concurrent save, archives and restores it', async ({
  page,
  request,
  demoTeam,
}) => {
  const name = skillName('quote-drafting');
  await page.goto(`/t/${demoTeam.slug}`);
  await page.getByTestId('nav-skills').click();
  await expect(page).toHaveURL(/\/skills$/);
  await page.getByTestId('skills-new').click();

  // Bad input: the server's message, and nothing is created.
  await page.getByTestId('skill-name').fill('Not A Name');
  await page.getByTestId('skill-description').fill('Drafts quotes from catalogue prices');
  await page.getByTestId('skill-save').click();
  await expect(page.getByTestId('skill-form-error')).toContainText('lowercase letters, digits');
  expect(await skillByName(request, demoTeam.id, 'Not A Name')).toBeUndefined();

  await page.getByTestId('skill-name').fill(name);
  await page.getByTestId('skill-instructions').fill('# Drafting a quote\n\n- look up **prices**\n- apply `discount.md`\n');
  const preview = page.getByTestId('skill-instructions-preview');
  await expect(preview.getByRole('heading', { name: 'Drafting a quote' })).toBeVisible();
  await expect(preview.locator('li strong')).toHaveText('prices');
  await expect(preview.locator('li code')).toHaveText('discount.md');
  await page.getByTestId('skill-file-add').click();
  await page.getByTestId('skill-file-path').fill('discount.md');
  await page.getByTestId('skill-file-content').fill('10% above 100 units');
  await page.getByTestId('skill-save').click();

  await expect(page).toHaveURL(/\/skills\/[^/]+$/);
  await expect(page.getByTestId('skill-version')).toHaveAttribute('data-version', '1');
  const created = await skillByName(request, demoTeam.id, name);
  expect(created).toMatchObject({ version: 1, files: [{ path: 'discount.md', content: '10% above 100 units' }] });

  // An edit makes version 2; removing the file is part of it.
  await page.getByTestId('skill-description').fill('Drafts quotes from catalogue prices and discount rules');
  await page.getByTestId('skill-file-remove').click();
  await page.getByTestId('skill-save').click();
  await expect(page.getByTestId('skill-saved')).toHaveText('Saved as version 2.');
  await expect(page.getByTestId('skill-version')).toHaveAttribute('data-version', '2');
  expect(await skillByName(request, demoTeam.id, name)).toMatchObject({
    version: 2,
    files: [],
    description: 'Drafts quotes from catalogue prices and discount rules',
  });

  // Someone else saves meanwhile: this form's save is refused, says so, and changes nothing.
  await trpcMutation(request, 'skills.update', stack.bootstrapToken, {
    teamId: demoTeam.id,
    skillId: created!.id,
    expectedVersion: 2,
    description: 'Changed elsewhere',
  });
  await page.getByTestId('skill-description').fill('My concurrent edit');
  await page.getByTestId('skill-save').click();
  await expect(page.getByTestId('skill-form-error')).toContainText('changed meanwhile (now version 3)');
  await expect(page.getByTestId('skill-conflict')).toBeVisible();
  expect(await skillByName(request, demoTeam.id, name)).toMatchObject({ version: 3, description: 'Changed elsewhere' });
  await page.getByTestId('skill-reload').click();
  await expect(page.getByTestId('skill-version')).toHaveAttribute('data-version', '3');
  await expect(page.getByTestId('skill-description')).toHaveValue('Changed elsewhere');
  await expect(page.getByTestId('skill-form-error')).toHaveCount(0);

  // Archive, find it among the archived, restore it.
  await page.getByTestId('skill-back').click();
  const row = page.locator(`[data-testid="skill-row"][data-skill-name="${name}"]`);
  await expect(row.getByTestId('skill-row-version')).toHaveText('v3');
  await row.getByTestId('skill-archive').click();
  await row.getByTestId('skill-archive-confirm').click();
  await expect(row).toHaveCount(0);
  await page.getByTestId('skills-show-archived').check();
  await expect(row).toHaveAttribute('data-archived', 'true');
  await row.getByTestId('skill-restore').click();
  await expect(row).toHaveAttribute('data-archived', 'false');
  await page.getByTestId('skills-show-archived').uncheck();
  await expect(row).toHaveAttribute('data-archived', 'false');
  expect((await skillByName(request, demoTeam.id, name))?.archivedAt).toBeNull();
});

test('an agent is given a skill and made persistent in the agent editor', async ({ page, request, demoTeam }) => {
  const token = stack.bootstrapToken;
  const name = skillName('inbox-rules');
  await trpcMutation(request, 'skills.create', token, { teamId: demoTeam.id, name, description: 'How to read the purchasing inbox', instructions: '# Inbox' });
  const endpoints = await trpcQuery<Array<{ id: string; kind: string }>>(request, 'agents.endpointOptions', token, { teamId: demoTeam.id });
  const faux = endpoints.find((endpoint) => endpoint.kind === 'faux');
  if (!faux) throw new Error('the seed has no faux endpoint');
  const agent = await trpcMutation<{ id: string; version: number }>(request, 'agents.create', token, {
    teamId: demoTeam.id,
    name: unique('e2e-skilled'),
    endpointId: faux.id,
  });

  await page.goto(`/t/${demoTeam.slug}/agents/${agent.id}`);
  const skill = page.locator(`[data-testid="agent-skill"][data-skill-name="${name}"]`);
  await expect(skill).not.toBeChecked();
  await skill.check();
  await page.getByTestId('agent-persistent').check();
  await page.getByTestId('agent-save').click();
  await expect(page.getByTestId('agent-saved')).toBeVisible();
  const saved = await trpcQuery<{ skills: string[]; persistent: boolean; version: number }>(request, 'agents.get', token, {
    teamId: demoTeam.id,
    agentId: agent.id,
  });
  expect(saved).toMatchObject({ skills: [name], persistent: true, version: agent.version + 1 });

  await page.reload();
  await expect(skill).toBeChecked();
  await expect(page.getByTestId('agent-persistent')).toBeChecked();
});

test('a viewer reads a skill but cannot change it; g s opens the Skills page', async ({ browser, request, demoTeam }) => {
  const name = skillName('viewer-reads');
  const skill = await trpcMutation<{ id: string }>(request, 'skills.create', stack.bootstrapToken, {
    teamId: demoTeam.id,
    name,
    description: 'Read only for viewers',
    instructions: '## Steps\n\n1. read',
  });
  const email = `${unique('skill-viewer')}@example.test`;
  const password = 'viewer-password-1';
  await inviteAndSignUp(request, demoTeam.id, email, 'viewer', password);
  const context = await browser.newContext({ baseURL: stack.baseURL, storageState: { cookies: [], origins: [] } });
  const viewer = await context.newPage();
  await signIn(viewer, email, password);
  await pressShortcut(viewer, 's');
  await expect(viewer).toHaveURL(/\/t\/demo\/skills$/);
  await expect(viewer.getByTestId('skills-new')).toHaveCount(0);
  await viewer.locator(`[data-testid="skill-row"][data-skill-name="${name}"]`).getByTestId('skill-open').click();
  await expect(viewer).toHaveURL(new RegExp(`/skills/${skill.id}$`));
  await expect(viewer.getByTestId('skill-name')).toHaveValue(name);
  await expect(viewer.getByTestId('skill-instructions')).not.toBeEditable();
  await expect(viewer.getByTestId('skill-instructions-preview').getByRole('heading', { name: 'Steps' })).toBeVisible();
  await expect(viewer.getByTestId('skill-save')).toHaveCount(0);
  await expect(viewer.getByTestId('skill-archive')).toHaveCount(0);
  await context.close();
});
