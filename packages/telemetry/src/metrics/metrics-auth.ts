import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether an `Authorization` header carries the metrics bearer token. Compared in constant time
 * over digests, so neither the token's content nor its length leaks through timing.
 */
export function metricsTokenMatches(authorization: string | null | undefined, expected: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match?.[1] || expected === '') return false;
  return timingSafeEqual(digest(match[1]), digest(expected));
}

/**
 * Answers a `/metrics` scrape: 401 without the token (or when none is configured: metrics are
 * never public), else the registry's Prometheus text.
 */
export async function metricsResponse(
  authorization: string | null | undefined,
  expected: string | undefined,
  render: () => Promise<{ body: string; contentType: string }>,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  if (!expected || !metricsTokenMatches(authorization, expected)) {
    return {
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' },
      body: 'metrics need the bearer token (LOOPLANE_METRICS_TOKEN)\n',
    };
  }
  const { body, contentType } = await render();
  return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, body };
}
