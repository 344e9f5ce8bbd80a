import { initTRPC, TRPCError } from '@trpc/server';
import { wireTransformer } from '@looplane/shared/wire';
import { z } from 'zod';
import { roleAtLeast, type Role } from '@looplane/shared';
import type { AuditActor } from '@looplane/db';
import type { Context } from './context';
import { resolveTeamRole, type Principal } from './auth/principal';
import { UNSTORABLE_TEXT, unstorableTextPath } from './storable-text';
import { toTrpcError, describeZodError } from './errors';
import { idSchema } from './schemas';

/** An audit actor that is a person (directly or through one of their tokens). */
export type PrincipalActor = Extract<AuditActor, { userId: string }>;

/** Which callers a procedure admits; the authorization matrix test reads this. */
export type Access = { kind: 'public' } | { kind: 'authed' } | { kind: 'team'; role: Role };
export interface Meta {
  access: Access;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // superjson, with the keys it refuses escaped (a model's `__proto__` must not break a listing).
    transformer: wireTransformer,
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof z.ZodError ? error.cause : null;
      // 5xx details stay in the logs; clients get a generic message.
      const message = error.code === 'INTERNAL_SERVER_ERROR' ? 'Internal server error' : zodError ? describeZodError(zodError) : shape.message;
      return {
        ...shape,
        message,
        data: {
          ...shape.data,
          stack: undefined,
          issues: zodError ? zodError.issues.map((i) => ({ path: i.path.map(String), message: i.message })) : undefined,
        },
      };
    },
  });

export const createRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Maps domain errors (AppError, Prisma constraint errors) to tRPC errors at the edge. */
const errorMapping = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toTrpcError(result.error);
  return result;
});

/**
 * Text the database cannot store (NUL, unpaired surrogates) is refused for every procedure at the
 * edge, with the field named, before any input schema or handler runs: otherwise it surfaced as a
 * 500 from the insert, after other work was done.
 */
const storableText = t.middleware(async ({ getRawInput, next }) => {
  const path = unstorableTextPath(await getRawInput());
  if (path) throw new TRPCError({ code: 'BAD_REQUEST', message: `Invalid input: ${path.join('.') || 'input'}: ${UNSTORABLE_TEXT}` });
  return next();
});

export const publicProcedure = t.procedure
  .meta({ access: { kind: 'public' } })
  .use(errorMapping)
  .use(storableText);

/** Narrows the context for a signed-in caller. */
export const authedProcedure = publicProcedure.meta({ access: { kind: 'authed' } }).use(({ ctx, next }) => {
  if (!ctx.principal) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in or send a valid API token' });
  return next({ ctx: { ...ctx, principal: ctx.principal, actor: actorOf(ctx.principal) } });
});

/**
 * A procedure scoped to one team (`input.teamId`) that requires at least `role` there.
 * Callers outside the team get FORBIDDEN; the resolved role is on `ctx.role`.
 */
export function teamProcedure(role: Role) {
  return authedProcedure
    .meta({ access: { kind: 'team', role } })
    .input(z.object({ teamId: idSchema }))
    .use(async ({ ctx, input, next }) => {
      const teamRole = await resolveTeamRole(ctx.db, ctx.principal, input.teamId);
      if (!teamRole) throw new TRPCError({ code: 'FORBIDDEN', message: 'You are not a member of this team' });
      if (!roleAtLeast(teamRole, role)) {
        throw new TRPCError({ code: 'FORBIDDEN', message: `This action needs the ${role} role; you are ${teamRole}` });
      }
      return next({ ctx: { ...ctx, teamId: input.teamId, role: teamRole } });
    });
}

function actorOf(principal: Principal): PrincipalActor {
  return principal.kind === 'token' ? { type: 'token', tokenId: principal.tokenId, userId: principal.userId } : { type: 'user', userId: principal.userId };
}
