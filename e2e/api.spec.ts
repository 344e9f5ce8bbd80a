import { expect, pressShortcut, test } from './support/fixtures';
import { stack, unique } from './support/stack';
import { bearer } from './support/trpc-api';

const RUN_TIMEOUT = 60_000;

test('Settings → API renders the reference from the live OpenAPI document', async ({ page }) => {
  await page.goto('/t/demo');
  await pressShortcut(page, 'i');
  await expect(page).toHaveURL(/\/t\/demo\/settings\/api$/);
  await expect(page.getByTestId('settings-tab-api')).toHaveAttribute('aria-current', 'page');

  // The reference is Scalar's, rendered from /api/openapi.json: the operations' summaries appear.
  // Tags start collapsed: opening the runs group in the sidebar lists its operations by summary.
  const reference = page.getByTestId('api-reference');
  await reference.getByRole('button', { name: 'Open Group - runs' }).click({ timeout: 30_000 });
  await expect(reference.getByText('Start a run').first()).toBeVisible();
  await expect(reference.getByText('List runs').first()).toBeVisible();
  // Nothing on the page talks to Scalar's hosted services.
  await expect(reference.getByText('Ask AI')).toHaveCount(0);

  const href = await page.getByTestId('openapi-link').getAttribute('href');
  expect(href).toBe('/api/openapi.json');
  const document = await page.request.get(href!);
  expect(document.status()).toBe(200);
  const body = (await document.json()) as {
    openapi: string;
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  expect(body.openapi).toBe('3.1.0');
  // Paths are relative to the server URL, /api/v1 on the same origin.
  expect(body.servers[0]?.url).toBe('/api/v1');
  expect(body.paths['/runs']?.post?.operationId).toBe('createRun');
  expect(body.paths['/runs/{runId}']?.get?.operationId).toBe('getRun');
});

test('REST: the cookie alone is refused, a team token starts a run once per Idempotency-Key, errors are problem+json', async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT * 2);
  // The page's request context carries the admin's session cookie: /api/v1 does not take it.
  const cookieOnly = await page.request.get('/api/v1/me');
  expect(cookieOnly.status()).toBe(401);
  expect(cookieOnly.headers()['content-type']).toMatch(/^application\/problem\+json/);
  expect(((await cookieOnly.json()) as { status: number }).status).toBe(401);

  const auth = bearer(stack.bootstrapToken);
  const me = await page.request.get('/api/v1/me', { headers: auth });
  expect(me.status()).toBe(200);

  const key = unique('e2e-idem');
  const goal = `REST from the browser suite ${key}`;
  const start = () =>
    page.request.post('/api/v1/runs', {
      headers: { ...auth, 'idempotency-key': key },
      data: { agentName: 'demo-steps', goal },
    });
  const first = await start();
  expect(first.status(), await first.text()).toBe(201);
  const { runId } = (await first.json()) as { runId: string };
  expect(first.headers().location).toBe(`/api/v1/runs/${runId}`);

  // The same key and body replays the first answer; another body with that key is 422.
  const again = await start();
  expect(again.status()).toBe(201);
  expect(again.headers()['idempotent-replayed']).toBe('true');
  expect(((await again.json()) as { runId: string }).runId).toBe(runId);
  const other = await page.request.post('/api/v1/runs', {
    headers: { ...auth, 'idempotency-key': key },
    data: { agentName: 'demo-steps', goal: `${goal}, changed` },
  });
  expect(other.status()).toBe(422);
  expect(other.headers()['content-type']).toMatch(/^application\/problem\+json/);

  // The worker runs it; the REST run and its events show it.
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/runs/${runId}`, { headers: auth })).json()) as { status: string }).status, {
      timeout: RUN_TIMEOUT,
    })
    .toBe('succeeded');
  const events = await page.request.get(`/api/v1/runs/${runId}/events`, { headers: auth });
  expect(events.status()).toBe(200);
  const page1 = (await events.json()) as { events: Array<{ type: string }>; stream: string };
  expect(page1.events.map((e) => e.type)).toContain('run.started');
  expect(page1.stream).toMatch(new RegExp(`^/api/runs/${runId}/stream`));

  // The same run appears once in the dashboard's list.
  await page.goto('/t/demo/runs');
  await expect(page.getByText(goal)).toHaveCount(1);

  const missing = await page.request.get('/api/v1/runs/cmnosuchrun0000000000000', { headers: auth });
  expect(missing.status()).toBe(404);
  const problem = (await missing.json()) as { status: number; title: string; detail?: string };
  expect(problem.status).toBe(404);
});
