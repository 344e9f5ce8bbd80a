import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repositoryDirName } from './bare-repository';
import { pipeCgiResponse } from './cgi-response';
import { cleanGitEnv, runCommand } from './run-command';

/** One request the git HTTP server received. Passwords are never kept. */
export interface GitHttpRequestLog {
  method: string;
  /** URL path, e.g. `/widgets.git/info/refs`. */
  path: string;
  /** Query string without `?`, e.g. `service=git-upload-pack`. */
  query: string;
  /** Whether the request carried an `Authorization` header at all. */
  authPresent: boolean;
  /** The Basic user name the request gave (right password or not); null without Basic credentials. */
  user: string | null;
  /** Whether the credentials matched `users` (or the request was anonymous and that is allowed). */
  authorized: boolean;
  /** The HTTP status sent; null until the response head is written. */
  status: number | null;
}

export interface GitHttpServerOptions {
  /** Directory holding the bare repositories (`GIT_PROJECT_ROOT`). */
  root: string;
  /** Accepted Basic credentials: user name → password. */
  users: Record<string, string>;
  /** Serve requests without an `Authorization` header (wrong credentials are still refused). */
  allowAnonymous?: boolean;
  /**
   * Hold every authorized `git-receive-pack` POST (the request that carries a push's pack and ref
   * updates) unread, before `git http-backend` sees it, until {@link GitHttpServer.releaseReceivePack}:
   * for tests of a push cut short. Every other request is served as usual.
   */
  holdReceivePack?: boolean;
}

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>/<name>.git` (see `createBareRepository` for the name rule). */
  url(repoName: string): string;
  port: number;
  /** Every request in arrival order. */
  requests: GitHttpRequestLog[];
  /** How many `git-receive-pack` POSTs are held right now (see `holdReceivePack`). */
  heldReceivePacks(): number;
  /**
   * Lets held pushes go, oldest first: each goes on to the backend (`serve`), or is answered 503
   * with its body unread and the connection closed (`refuse`: the push never reaches the
   * repository; an error status, not a cut connection, since curl silently sends a request again
   * on a new connection when a reused one dies before any reply). Without `count`, every held
   * push goes and holding stops; with it, only that many go and later pushes are held still.
   */
  releaseReceivePack(how: 'serve' | 'refuse', count?: number): void;
  /** Stops listening, drops open connections and kills running backends. */
  close(): Promise<void>;
}

function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Serves the bare repositories under `root` over smart HTTP on a free port of 127.0.0.1 by running
 * the real `git http-backend` as a CGI program per request. Every request, fetch and push alike,
 * needs Basic credentials from `users` (401 with `WWW-Authenticate: Basic realm="git"` otherwise),
 * and pushing is enabled for every repository under `root`.
 */
export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const backend = join((await runCommand('git', ['--exec-path'])).trim(), 'git-http-backend');
  const requests: GitHttpRequestLog[] = [];
  const running = new Map<ChildProcess, Promise<void>>();
  let holding = options.holdReceivePack === true;
  const held: { serve(): void; refuse(): void }[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const authorization = headerValue(req, 'authorization');
    const credentials = basicCredentials(authorization);
    const authorized = credentials
      ? Object.hasOwn(options.users, credentials.user) && options.users[credentials.user] === credentials.password
      : authorization === undefined && options.allowAnonymous === true;
    const entry: GitHttpRequestLog = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      authPresent: authorization !== undefined,
      user: credentials?.user ?? null,
      authorized,
      status: null,
    };
    requests.push(entry);
    const reply = (status: number, text: string, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(text);
    };
    if (!authorized) {
      req.resume();
      reply(401, 'authentication required\n', { 'WWW-Authenticate': 'Basic realm="git"' });
      return;
    }
    let pathInfo: string;
    try {
      pathInfo = decodeURIComponent(url.pathname);
    } catch {
      reply(400, 'malformed path\n');
      return;
    }

    const optional: Record<string, string | undefined> = {
      CONTENT_TYPE: headerValue(req, 'content-type'),
      CONTENT_LENGTH: headerValue(req, 'content-length'),
      // git http-backend inflates gzip request bodies itself when told so.
      HTTP_CONTENT_ENCODING: headerValue(req, 'content-encoding'),
      GIT_PROTOCOL: headerValue(req, 'git-protocol'),
      REMOTE_USER: credentials?.user,
    };
    const env = cleanGitEnv({
      GIT_PROJECT_ROOT: options.root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.receivepack',
      GIT_CONFIG_VALUE_0: 'true',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      REQUEST_METHOD: entry.method,
      QUERY_STRING: entry.query,
      PATH_INFO: pathInfo,
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    });
    for (const [key, value] of Object.entries(optional)) if (value !== undefined) env[key] = value;

    const serve = () => {
      const child = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
      running.set(child, exited);
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString('utf8')).slice(-8192);
      });
      void exited.then(() => running.delete(child));
      child.on('error', (error) => {
        if (!res.headersSent) reply(502, `git http-backend did not start: ${error.message}\n`);
      });
      // The backend may exit before reading everything (an error reply); that is not our failure.
      child.stdin.on('error', () => {});
      req.pipe(child.stdin);
      pipeCgiResponse(child.stdout, res).then(
        (status) => {
          entry.status = status;
        },
        () =>
          exited.then(() => {
            if (!res.headersSent) reply(502, `git http-backend failed: ${stderr}\n`);
          }),
      );
    };
    if (holding && entry.method === 'POST' && pathInfo.endsWith('/git-receive-pack')) {
      // Unread: the body stays in the socket until the test says what becomes of it.
      held.push({ serve, refuse: () => reply(503, 'push refused unread\n', { Connection: 'close' }) });
      return;
    }
    serve();
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: (repoName) => `http://127.0.0.1:${port}/${repositoryDirName(repoName)}`,
    port,
    requests,
    heldReceivePacks: () => held.length,
    releaseReceivePack: (how, count) => {
      if (count === undefined) holding = false;
      for (const request of held.splice(0, count ?? held.length)) request[how]();
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const child of running.keys()) child.kill('SIGKILL');
      await Promise.all([closed, ...running.values()]);
    },
  };
}
