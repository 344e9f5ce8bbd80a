import { describe, expect, it } from 'vitest';
import { metricsResponse, metricsTokenMatches } from './metrics-auth';

const TOKEN = 'a-metrics-token-0123456789';
const render = async () => ({ body: 'looplane_up 1\n', contentType: 'text/plain; version=0.0.4' });

describe('metrics bearer token', () => {
  it('matches only the exact bearer token', () => {
    expect(metricsTokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(metricsTokenMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(metricsTokenMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(metricsTokenMatches(TOKEN, TOKEN)).toBe(false);
    expect(metricsTokenMatches(null, TOKEN)).toBe(false);
    expect(metricsTokenMatches('Bearer ', '')).toBe(false);
  });

  it('answers 401 without the token, or when none is configured, and the text with it', async () => {
    expect((await metricsResponse(undefined, TOKEN, render)).status).toBe(401);
    expect((await metricsResponse(`Bearer ${TOKEN}`, undefined, render)).status).toBe(401);
    const ok = await metricsResponse(`Bearer ${TOKEN}`, TOKEN, render);
    expect(ok).toMatchObject({ status: 200, body: 'looplane_up 1\n' });
    expect(ok.headers['content-type']).toContain('text/plain');
  });
});
