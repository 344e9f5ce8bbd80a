import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ProblemError, unwrap } from '@looplane/client';
import { createApiClient, describeApiError } from './client';

const problem = (status: number, detail: string) => new ProblemError(status, { type: 'about:blank', title: 'T', status, detail, code: 'X' });

describe('describeApiError', () => {
  it('names the token on 401 and gives the server’s detail for other refusals', () => {
    const remote = { url: 'http://localhost:3000', token: 'llp_x' };
    expect(describeApiError(problem(401, 'The API token is invalid, revoked or expired'), remote)).toBe(
      'the server refused the token (401): check LOOPLANE_TOKEN',
    );
    expect(describeApiError(problem(404, 'No such run in this team'), remote)).toBe('No such run in this team');
  });

  it('says which server could not be reached, and how to point at another', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const remote = { url: `http://127.0.0.1:${(closed.address() as AddressInfo).port}`, token: 'llp_x' };
    await new Promise((resolve) => closed.close(resolve));
    const error = await unwrap(createApiClient(remote).GET('/me')).catch((e: unknown) => e);
    expect(describeApiError(error, remote)).toMatch(new RegExp(`^cannot reach ${remote.url}: connect ECONNREFUSED .+ \\(set LOOPLANE_URL\\?\\)$`));
  });
});
