/**
 * The one error type domain code throws. Only the API edge maps it to tRPC/HTTP;
 * a 4xx message is shown to the caller verbatim, so it must say exactly what was wrong.
 */
export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for errors whose message is safe to return to a client. */
export function isClientError(error: AppError): boolean {
  return error.code !== 'INTERNAL';
}
