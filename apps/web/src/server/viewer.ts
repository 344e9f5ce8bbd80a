import 'server-only';
import { appRouter, createCallerFactory, createTrpcContext } from '@looplane/api';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { clientIp } from './client-ip';
import { apiDeps } from './live';
import { sessionClaims } from './session';

const createCaller = createCallerFactory(appRouter);

export type ServerCaller = ReturnType<typeof createCaller>;
export type Viewer = Awaited<ReturnType<ServerCaller['me']>>;

/**
 * The signed-in user of this render and a tRPC caller acting as them, or null when signed out
 * (no session, a session that was ended, or the user no longer exists). Cached per request.
 */
export const getViewer = cache(async (): Promise<{ me: Viewer; caller: ServerCaller } | null> => {
  const session = await sessionClaims(await cookies());
  if (!session) return null;
  const ctx = await createTrpcContext(apiDeps(), { authorization: null, session, ip: clientIp(await headers()) });
  if (!ctx.principal) return null;
  const caller = createCaller(ctx);
  return { me: await caller.me(), caller };
});
