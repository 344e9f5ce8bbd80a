import { NextResponse } from 'next/server';
import { checkHealth } from '@/server/health';
import packageJson from '../../../../package.json';

/** Public liveness + readiness: 200 only when Postgres and Redis both answer. */
export async function GET(): Promise<Response> {
  const { database, redis } = await checkHealth();
  const up = database === 'up' && redis === 'up';
  return NextResponse.json(
    { status: up ? 'ok' : 'degraded', database, redis, version: packageJson.version },
    { status: up ? 200 : 503, headers: { 'cache-control': 'no-store' } },
  );
}
