/**
 * Runs once when the server starts, before it serves requests: a missing or malformed variable
 * stops `next start` with one clear line instead of failing on the first request.
 *
 * `NEXT_RUNTIME` is a build-time constant Next inlines (not configuration): it keeps the
 * Node-only env module out of the edge bundle of this file.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { validateEnvAtStartup } = await import('./env');
  validateEnvAtStartup();
}
