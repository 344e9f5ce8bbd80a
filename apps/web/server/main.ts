import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import pino from 'pino';
import { InvalidEnvironmentError, parseListenerEnv, type ListenerEnv } from '../src/env-listener';
import { STRICT_TRANSPORT_SECURITY } from '../src/lib/security-headers';
import { rewriteForwardedHeaders } from './forwarded-headers';
import { refuseUndecodable, undecodablePart } from './percent-encoding';

/**
 * The web process: Next's request handler behind a plain Node HTTP server of ours, run as
 * `node apps/web/dist/server.mjs` (bundled by `server/build.mjs`) instead of `next start`, because
 * only the server that accepts the connection knows the socket peer. It rewrites the forwarding
 * headers (`forwarded-headers.ts`), refuses request targets that do not decode with a 400
 * (`percent-encoding.ts`), adds HSTS on https, and listens on HOST:PORT (default 127.0.0.1:3000,
 * this machine only). Next itself, the dashboard and the API are unchanged.
 */

/** apps/web, from apps/web/dist/server.mjs (the bundle) or apps/web/server/main.ts (the source). */
const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const STOP_GRACE_MS = 5000;
/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) races clients and
 * proxies that reuse a pooled connection after a few idle seconds: the request meets the
 * server's close and fails with ECONNRESET. Proxies keep upstream connections up to 60 s, so the
 * server waits longer than that; the header timeout must exceed it.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

const log = pino({ name: 'looplane-web' });

function listenerEnv(): ListenerEnv {
  try {
    return parseListenerEnv(process.env);
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const env = listenerEnv();
  const app = next({ dev: false, dir: webDir, hostname: env.HOST, port: env.PORT });
  const handle = app.getRequestHandler();
  await app.prepare();
  const publicUrlIsHttps = env.NEXTAUTH_URL?.startsWith('https://') ?? false;

  const server = createServer((req, res) => {
    const facts = rewriteForwardedHeaders(req.headers, req.socket.remoteAddress, env.LOOPLANE_TRUSTED_PROXIES);
    if (facts.https || publicUrlIsHttps) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    // Before Next: a target that does not decode is the client's mistake (400), not ours (500).
    const target = req.url ?? '/';
    const undecodable = undecodablePart(target);
    if (undecodable) return refuseUndecodable(target, undecodable, res);
    handle(req, res).catch((error: unknown) => {
      log.error({ err: error }, 'request failed');
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  // Live streams (SSE) never end by themselves: on a stop signal, stop accepting, then cut them.
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => {
      server.closeAllConnections();
      process.exit(0);
    }, STOP_GRACE_MS).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.PORT, env.HOST, () => resolve());
  });
  log.info({ host: env.HOST, port: env.PORT, trustedProxies: env.LOOPLANE_TRUSTED_PROXIES.entries }, `listening on ${env.HOST}:${env.PORT}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`looplane web failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
