import { expect, type APIRequestContext } from '@playwright/test';

/**
 * Minimal tRPC-over-HTTP calls for test fixtures (superjson wire format: `{ json: ... }`).
 * Fixtures create their data through the API, like any script with a token would.
 */
export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export async function trpcQuery<T>(request: APIRequestContext, path: string, token: string, input?: unknown): Promise<T> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  const response = await request.get(`/api/trpc/${path}${query}`, { headers: bearer(token) });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()).result.data.json as T;
}

export async function trpcMutation<T>(request: APIRequestContext, path: string, token: string, input: unknown): Promise<T> {
  const response = await request.post(`/api/trpc/${path}`, { headers: bearer(token), data: { json: input } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()).result.data.json as T;
}

export interface Me {
  user: { id: string; email: string };
  via: 'session' | 'token';
  teams: Array<{ id: string; slug: string; name: string; role: string }>;
}
