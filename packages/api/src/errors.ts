import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { z } from 'zod';
import { AppError, type AppErrorCode } from '@looplane/shared';
import { Prisma } from '@looplane/db';

const codeMap: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
};

/** The one place domain errors become API errors. */
export function toTrpcError(error: TRPCError): TRPCError {
  const cause: unknown = error.cause;
  if (cause instanceof AppError) {
    return new TRPCError({ code: codeMap[cause.code], message: cause.message, cause });
  }
  if (cause instanceof Prisma.PrismaClientKnownRequestError && cause.code === 'P2002') {
    return new TRPCError({ code: 'CONFLICT', message: 'That already exists', cause });
  }
  return error;
}

/** One readable line for a validation failure: `name: Too big: expected string to have <=100 characters`. */
export function describeZodError(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length > 5 ? ` (+${error.issues.length - 5} more)` : '';
  return `Invalid input: ${parts.join('; ')}${more}`;
}

/** The HTTP status of a domain error, for the plain (non-tRPC) routes: the same one tRPC would send. */
export function httpStatusOf(error: AppError): number {
  return getHTTPStatusCodeFromError(new TRPCError({ code: codeMap[error.code] }));
}
