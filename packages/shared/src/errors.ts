/**
 * The one error type domain code throws. Only the API edge maps it to tRPC/HTTP;
 * a 4xx message is shown to the caller verbatim, so it must say exactly what was wrong.
 */
export type AppErrorCode = 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'PRECONDITION_FAILED' | 'TOO_MANY_REQUESTS' | 'INTERNAL';

/** Marks an AppError across copies of this module (a bundler may load one per layer). */
const BRAND = Symbol.for('looplane.AppError');

export class AppError extends Error {
  override readonly name = 'AppError';
  /**
   * `instanceof AppError` holds for an AppError made by any copy of this module: Next bundles a
   * package once per layer, and an error thrown by one copy must still map to its 4xx at the edge.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

  constructor(
    readonly code: AppErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** True for errors whose message is safe to return to a client. */
export function isClientError(error: AppError): boolean {
  return error.code !== 'INTERNAL';
}
