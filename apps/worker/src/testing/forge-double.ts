import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the double received, as it arrived. */
interface RecordedForgeRequest {
  method: string;
  /** The path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON; the raw text when it is not JSON. */
  body: unknown;
}

export interface ForgeDouble {
  /** `http://127.0.0.1:<port>`: the forge's web and API host. */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: RecordedForgeRequest[];
  /** From now on every API request is answered `status` with `message` in the forge's error shape. */
  failWith(status: number, message: string): void;
  /** The next request only is answered `status` (default 307) with `Location: location`. */
  redirectNext(location: string, status?: number): void;
  /** From now on requests get no answer at all (a forge that hangs). */
  stall(): void;
  /** Back to answering like the forge; the recorded requests stay. */
  reset(): void;
  close(): Promise<void>;
}

type Route = { forge: 'github' | 'gitea'; owner: string; repo: string } | { forge: 'gitlab'; project: string };

/**
 * The three forges' "open a pull request" endpoints: GitHub `POST /repos/{o}/{r}/pulls` (also
 * under `/api/v3`, as GitHub Enterprise serves it), Gitea `POST /api/v1/repos/{o}/{r}/pulls`,
 * GitLab `POST /api/v4/projects/{url-encoded path}/merge_requests`.
 */
function routeOf(path: string): Route | null {
  const pulls = /^(\/api\/v[13])?\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(path);
  if (pulls) return { forge: pulls[1] === '/api/v1' ? 'gitea' : 'github', owner: decodeURIComponent(pulls[2]!), repo: decodeURIComponent(pulls[3]!) };
  const merge = /^\/api\/v4\/projects\/([^/]+)\/merge_requests$/.exec(path);
  if (merge) return { forge: 'gitlab', project: decodeURIComponent(merge[1]!) };
  return null;
}

/** The token the request carries in the header its forge reads it from. */
function tokenOf(route: Route, headers: IncomingHttpHeaders): string | undefined {
  if (route.forge === 'gitlab') return typeof headers['private-token'] === 'string' ? headers['private-token'] : undefined;
  const scheme = route.forge === 'github' ? 'Bearer ' : 'token ';
  return headers.authorization?.startsWith(scheme) ? headers.authorization.slice(scheme.length) : undefined;
}

/** An error answer in the shape its forge uses. */
function errorBody(route: Route | null, status: number, message: string): object {
  if (route?.forge === 'github' && status === 422)
    return { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message }], documentation_url: 'https://docs.github.com/rest' };
  if (route?.forge === 'gitlab' && status !== 401) return { message: [message] };
  return { message };
}

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * A forge on 127.0.0.1 for tests: a real HTTP server on a free port that opens pull requests the
 * way GitHub, GitLab and Gitea answer (201 with the web URL and number), records every request,
 * and can be told to fail, redirect or hang. With `token`, a request without it in its forge's
 * header gets the forge's 401.
 */
export async function startForgeDouble(options: { token?: string } = {}): Promise<ForgeDouble> {
  const requests: RecordedForgeRequest[] = [];
  let failure: { status: number; message: string } | null = null;
  let redirect: { location: string; status: number } | null = null;
  let stalled = false;
  let next = 1;
  let url = '';

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: recorded as sent.
    }
    const path = req.url ?? '';
    requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    if (stalled) return;
    if (redirect) {
      res.writeHead(redirect.status, { location: redirect.location });
      res.end();
      redirect = null;
      return;
    }
    const route = routeOf(path.split('?')[0]!);
    if (!route) return answer(res, 404, { message: 'Not Found' });
    if (req.method !== 'POST') return answer(res, 405, { message: 'Method Not Allowed' });
    if (failure) return answer(res, failure.status, errorBody(route, failure.status, failure.message));
    if (options.token !== undefined && tokenOf(route, req.headers) !== options.token)
      return answer(res, 401, errorBody(route, 401, route.forge === 'gitlab' ? '401 Unauthorized' : 'Bad credentials'));
    const number = next++;
    if (route.forge === 'gitlab') return answer(res, 201, { id: 1000 + number, iid: number, web_url: `${url}/${route.project}/-/merge_requests/${number}` });
    const page = route.forge === 'github' ? 'pull' : 'pulls';
    return answer(res, 201, { id: 1000 + number, number, html_url: `${url}/${route.owner}/${route.repo}/${page}/${number}` });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    failWith(status, message) {
      failure = { status, message };
    },
    redirectNext(location, status = 307) {
      redirect = { location, status };
    },
    stall() {
      stalled = true;
    },
    reset() {
      failure = null;
      redirect = null;
      stalled = false;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // A stalled request would hold the server open: end every connection.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
