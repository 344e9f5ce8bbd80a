import { chmod, rm } from 'node:fs/promises';
import { lookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { AppError } from '@looplane/shared';
import { credentialsFor, egressPolicySchema, isAllowed, isPrivateAddress, normalizeHost, type EgressPolicy, type EgressPolicyInput } from './egress-policy';
import { relayResponse } from './egress-response';
import { SecretRedactor } from './secret-redactor';

/** One decision of the proxy; the worker records each as an event. Never carries credential values. */
export interface EgressDecision {
  kind: 'connect' | 'http';
  method: string;
  host: string;
  port: number;
  allowed: boolean;
  reason: string;
  /** Names (not values) of the headers the proxy injected. */
  injectedHeaders: string[];
}

/**
 * One request as the proxy sees it, for the caller's rules: a request it forwards itself is known
 * whole (method and absolute URL); a CONNECT tunnel shows only host and port (TLS is not
 * terminated, so nothing inside it is known).
 */
export type EgressRequest =
  | { kind: 'http'; method: string; url: string; host: string; port: number }
  | { kind: 'connect'; method: 'CONNECT'; host: string; port: number };

/** The caller's answer for one request: refused ones get 403 with `reason`, and are recorded with it. */
export type EgressVerdict = { allowed: true; reason?: string } | { allowed: false; reason: string };

export interface EgressProxyOptions {
  /** Where to listen; the socket is made connectable by the sandbox uids (its directory must be traversable). */
  socketPath: string;
  policy: EgressPolicyInput;
  /**
   * Decides each request on `socketPath` that the allowlist passed (the allowlist is the network
   * boundary; these rules then decide per request). Without it the allowlist alone decides. A
   * verdict that cannot be had (it throws) refuses the request.
   */
  decideRequest?: (request: EgressRequest) => EgressVerdict | Promise<EgressVerdict>;
  /**
   * A second socket, for the worker's own clients (the http_request tool, MCP over HTTP) whose
   * tool call the policy has already decided (approved, if it needed an approver): the allowlist
   * and credentials apply there, `decideRequest` does not. Only the worker's uid can connect to
   * it, and it is never bound into a sandbox.
   */
  workerSocketPath?: string;
  onDecision?: (decision: EgressDecision) => void;
  connectTimeoutMs?: number;
  /**
   * PEM certificates trusted, besides Node's bundled roots, when the proxy originates TLS (tests:
   * a local server's self-signed certificate). Without it Node's defaults apply, NODE_EXTRA_CA_CERTS
   * included.
   */
  trustedCertificates?: string[];
}

/** A running proxy: bind `socketPath` into the sandbox (ExecRequest.egress) and close it when the run ends. */
export interface EgressProxy {
  readonly socketPath: string;
  /** The worker-only socket (see {@link EgressProxyOptions.workerSocketPath}); null when not asked for. */
  readonly workerSocketPath: string | null;
  /** Redacts every secret this proxy could inject (the worker applies it to tool results too). */
  readonly redactor: SecretRedactor;
  close(): Promise<void>;
}

/** Per-request rules of one listener: none on the worker's own socket. */
type Rules = ((request: EgressRequest) => Promise<EgressVerdict>) | null;

/** What every forwarded request of one proxy shares. */
interface Forwarding {
  policy: EgressPolicy;
  decide: (decision: EgressDecision) => void;
  timeoutMs: number;
  /** Every secret the proxy could inject, kept out of what it passes back. */
  redactor: SecretRedactor;
  /** The trust store for TLS the proxy originates; undefined: Node's default. */
  ca: string[] | undefined;
}

// Hop-by-hop and proxy headers never travel upstream.
const DROP = new Set(['connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/**
 * Starts a run's egress proxy on a unix socket: HTTP CONNECT tunnels (HTTPS from inside the
 * sandbox) and absolute-form HTTP requests. Only allow-listed host:port pass, and then only what
 * `decideRequest` allows. The host's credential headers are injected only into `https://`
 * absolute-form requests, which the proxy sends over TLS it originates and verifies itself (as
 * for the http_request tool); a plain `http://` request gets them only from an `insecure` entry,
 * and a CONNECT tunnel never (its TLS is end to end). Every secret the proxy could inject is
 * redacted from the responses it forwards. Everything else gets 403.
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const policy = egressPolicySchema.parse(options.policy);
  const decide = (decision: EgressDecision) => {
    try {
      options.onDecision?.(decision);
    } catch {
      // A failing recorder must not take the proxy down; the worker logs its own failures.
    }
  };
  const ask = options.decideRequest;
  const rules: Rules = ask ? async (request) => ask(request) : null;
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  const forwarding: Forwarding = {
    policy,
    decide,
    timeoutMs,
    redactor: new SecretRedactor(policy.credentials.flatMap((entry) => Object.values(entry.headers))),
    ca: options.trustedCertificates?.length ? [...rootCertificates, ...options.trustedCertificates] : undefined,
  };
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  const listen = async (socketPath: string, listenerRules: Rules, mode: number) => {
    const server = createServer((req, res) => void forward(req, res, forwarding, listenerRules));
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => void tunnel(req, client, head, policy, listenerRules, decide, timeoutMs));
    server.maxConnections = 256;
    await rm(socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    servers.push(server);
    await chmod(socketPath, mode);
  };
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    await rm(options.socketPath, { force: true });
    if (options.workerSocketPath) await rm(options.workerSocketPath, { force: true });
  };
  try {
    await listen(options.socketPath, rules, 0o666);
    if (options.workerSocketPath) await listen(options.workerSocketPath, null, 0o600);
  } catch (error) {
    await close();
    throw error;
  }
  return { socketPath: options.socketPath, workerSocketPath: options.workerSocketPath ?? null, redactor: forwarding.redactor, close };
}

/** The listener's rules for one request (none: allowed); a verdict that cannot be had refuses it. */
async function ruling(rules: Rules, request: EgressRequest): Promise<EgressVerdict> {
  if (!rules) return { allowed: true };
  try {
    return await rules(request);
  } catch (error) {
    return { allowed: false, reason: `the request could not be decided: ${(error as Error).message}` };
  }
}

/** Where to connect, and why the request was allowed (what its decision records). */
type Resolved = { address: string; family: number; reason: string };

/**
 * Checks a destination and resolves it; returns the address to connect to, or why not. The order
 * is the boundary's: port, the allowlist (the network boundary), the rules for this request, then
 * the addresses the name resolves to.
 */
async function resolveTarget(policy: EgressPolicy, rules: Rules, request: EgressRequest): Promise<Resolved | { denied: string }> {
  const { host, port } = request;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { denied: 'invalid port' };
  if (!isAllowed(policy, host, port)) return { denied: `${host}:${port} is not on the egress allowlist` };
  const verdict = await ruling(rules, request);
  if (!verdict.allowed) return { denied: verdict.reason };
  const reason = verdict.reason ?? 'allowed';
  const literal = isIP(normalizeHost(host));
  if (literal) return { address: normalizeHost(host), family: literal, reason };
  const addresses = await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) return { denied: `${host} does not resolve` };
  // Every answer is checked (a name with one public and one private address is refused), then
  // IPv4 is preferred: services often listen on IPv4 only.
  const blocked = policy.allowPrivateAddresses ? undefined : addresses.find((a) => isPrivateAddress(a.address));
  if (blocked) return { denied: `${host} resolves to a private address (${blocked.address})` };
  const [first] = [...addresses].sort((a, b) => a.family - b.family) as [{ address: string; family: number }];
  return { address: first.address, family: first.family, reason };
}

async function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  policy: EgressPolicy,
  rules: Rules,
  decide: (d: EgressDecision) => void,
  timeoutMs: number,
) {
  client.on('error', () => undefined);
  const target = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
  const host = normalizeHost(target?.[1] ?? '');
  const port = Number(target?.[2]);
  const resolved = target ? await resolveTarget(policy, rules, { kind: 'connect', method: 'CONNECT', host, port }) : { denied: 'CONNECT needs host:port' };
  const base = { kind: 'connect' as const, method: 'CONNECT', host, port, injectedHeaders: [] };
  if ('denied' in resolved) {
    decide({ ...base, allowed: false, reason: resolved.denied });
    client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\negress denied: ${resolved.denied}\n`);
    return;
  }
  const upstream = connect({ host: resolved.address, port, timeout: timeoutMs });
  upstream.once('connect', () => {
    upstream.setTimeout(0);
    decide({ ...base, allowed: true, reason: resolved.reason });
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  const fail = (why: string) => {
    if (upstream.readyState === 'open') return;
    decide({ ...base, allowed: false, reason: `upstream unreachable: ${why}` });
    client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    upstream.destroy();
  };
  upstream.once('timeout', () => fail('timeout'));
  upstream.on('error', (error) => (upstream.readyState === 'open' ? client.destroy() : fail(error.message)));
  client.once('close', () => upstream.destroy());
}

async function forward(req: IncomingMessage, res: ServerResponse, forwarding: Forwarding, rules: Rules) {
  const { policy, decide, timeoutMs, redactor } = forwarding;
  const url = URL.canParse(req.url ?? '') ? new URL(req.url as string) : null;
  const secure = url?.protocol === 'https:';
  const host = url ? normalizeHost(url.hostname) : '';
  const port = url ? Number(url.port || (secure ? 443 : 80)) : 0;
  const base = { kind: 'http' as const, method: req.method ?? 'GET', host, port };
  const deny = (status: number, reason: string) => {
    decide({ ...base, allowed: false, reason, injectedHeaders: [] });
    res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' }).end(`egress denied: ${reason}\n`);
  };
  if (!url || (url.protocol !== 'http:' && !secure)) return deny(400, 'the proxy takes absolute http:// or https:// URLs and CONNECT');
  const resolved = await resolveTarget(policy, rules, { kind: 'http', method: base.method, url: url.href, host, port });
  if ('denied' in resolved) return deny(403, resolved.denied);
  const { headers: credentials, withheld } = credentialsFor(policy, host, port, secure);
  // Said in the decision, so a 401 from the host is explained: names only, never values.
  const reason = withheld.length ? `${resolved.reason}; not injected over plain http:// (TLS only): ${withheld.join(', ')}` : resolved.reason;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !DROP.has(name)) headers[name] = value;
  for (const [name, value] of Object.entries(credentials)) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    headers[name] = value;
  }
  headers.host = url.host;
  // A compressed body would hide an echoed secret from the redactor: ask for none.
  if (redactor.active) headers['accept-encoding'] = 'identity';
  const send = secure ? httpsRequest : httpRequest;
  const upstream = send({
    host,
    port,
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers,
    agent: false,
    timeout: timeoutMs,
    // Connect to the address that was checked, not to a second (possibly different) answer.
    lookup: pinnedLookup(resolved),
    // The certificate is verified for the URL's host (Node's default, never turned off here).
    ...(secure && forwarding.ca ? { ca: forwarding.ca } : {}),
  });
  upstream.once('response', (response) => {
    decide({ ...base, allowed: true, reason, injectedHeaders: Object.keys(credentials) });
    relayResponse(response, res, base.method, DROP, redactor);
  });
  upstream.once('timeout', () => upstream.destroy(new AppError('INTERNAL', 'upstream timeout')));
  upstream.once('error', (error) => {
    decide({ ...base, allowed: false, reason: `upstream failed: ${error.message}`, injectedHeaders: [] });
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream failed: ${error.message}\n`);
    else res.destroy();
  });
  req.pipe(upstream);
}

/** A lookup that always answers the address already checked (Node asks with `all` when it races families). */
function pinnedLookup(resolved: { address: string; family: number }): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (error: null, address: unknown, family?: number) => void) => {
    if (options.all) callback(null, [{ address: resolved.address, family: resolved.family }]);
    else callback(null, resolved.address, resolved.family);
  }) as LookupFunction;
}
