import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createModelForEndpoint } from '@looplane/models';
import { startChatServer } from '@looplane/models/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { setUpRuntimeSuite, waitForRun } from '../testing/runtime-suite';

/**
 * The worker holds model calls to the endpoint address policy at connect time, whatever the row
 * says: an endpoint pointed at loopback (saved while it was allowed, or a name that resolves there
 * now) fails the run with the refusal, and nothing connects. Real worker, real OpenAI adapter,
 * a real Chat Completions server on 127.0.0.1, no LOOPLANE_ENDPOINTS_ALLOW.
 */
const s = setUpRuntimeSuite('endpoint-address', { createModel: (endpoint) => createModelForEndpoint(endpoint, 'sk-test-secret-key-123') });
const server = await startChatServer([{ text: 'never', usage: { prompt_tokens: 1, completion_tokens: 1 } }]);
afterAll(async () => {
  await server.close();
});

describe('model calls from the worker', () => {
  for (const baseUrl of [server.baseURL, `http://localhost:${server.port}/v1`]) {
    it(`refuse ${baseUrl} at connect time: the run fails saying why, and the server sees no connection`, async () => {
      const agent = await createTestAgent(s.t.db, await createTestTeam(s.t.db));
      await s.t.db.modelEndpoint.update({ where: { id: agent.endpointId }, data: { kind: 'openai', baseUrl, maxRetries: 3 } });
      const run = await createTestRun(s.t.db, agent);
      await s.client.enqueue({ ...run, reason: 'start' });
      const done = await waitForRun(s.t.db, run.runId);
      expect(done).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(
          /^model call failed: (localhost resolves to (127\.0\.0\.1|::1), which|127\.0\.0\.1) is a loopback address: model endpoints may not connect there unless the server's LOOPLANE_ENDPOINTS_ALLOW lists it/,
        ),
      });
      expect(server.connections).toBe(0);
    });
  }
});
