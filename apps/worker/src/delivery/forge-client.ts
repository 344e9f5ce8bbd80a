import type { Forge } from '@looplane/db';
import { defaultForgeApiUrl, forgeRepositoryOf } from './forge-remote';
import { FORGE_NAMES, forgeMessageOf, pullRequestRequest, type PullRequestFields } from './forge-requests';

/** How long opening a pull request may take, redirects and answer included. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** Same-host redirects followed (a renamed repository answers 307); the token never goes to another host. */
const MAX_REDIRECTS = 3;
/** The most of an answer read: a pull request's JSON is a few KiB. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export interface OpenPullRequestOptions extends PullRequestFields {
  forge: Forge;
  /** The forge's API base URL (a token secret's `apiUrl`); default derived from the remote's host. */
  apiUrl?: string | null;
  /** The repository's remote: https://host/owner/repo(.git), ssh://git@host/owner/repo.git or git@host:owner/repo.git. */
  remoteUrl: string;
  token: string;
  /** Default 30 s. */
  timeoutMs?: number;
  /** Stops the request (the session ends); the error says so. */
  signal?: AbortSignal;
  /** Default the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/** A pull request that could not be opened: the forge's status and words when it answered, the token never. */
export class ForgeRequestError extends Error {
  override readonly name = 'ForgeRequestError';
  constructor(
    message: string,
    readonly forge: Forge,
    /** The forge's HTTP status; null when it did not answer. */
    readonly status: number | null,
  ) {
    super(message);
  }
}

/**
 * Opens a pull request (a merge request on GitLab) from `head` into `base` and returns its web
 * page and number. One POST to the forge's API; a redirect is followed only on the same host and
 * port, so the token is never sent anywhere else. Every failure throws a {@link ForgeRequestError}
 * naming the status and the forge's message, with the token cut out of any text.
 */
export async function openPullRequest(options: OpenPullRequestOptions): Promise<{ url: string; number: number }> {
  const name = FORGE_NAMES[options.forge];
  const redact = (text: string) => redactToken(text, options.token);
  const fail = (message: string, status: number | null = null) => new ForgeRequestError(redact(message), options.forge, status);

  let repository: ReturnType<typeof forgeRepositoryOf>;
  let apiUrl: string;
  try {
    repository = forgeRepositoryOf(options.forge, options.remoteUrl);
    apiUrl = checkedApiUrl(options.apiUrl ?? defaultForgeApiUrl(options.forge, repository));
  } catch (error) {
    throw fail((error as Error).message);
  }
  const request = pullRequestRequest(options.forge, apiUrl, repository, options.token, options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const send = options.fetch ?? globalThis.fetch;

  try {
    let url = request.url;
    for (let hop = 0; ; hop++) {
      const response = await send(url, { method: 'POST', headers: request.headers, body: request.body, redirect: 'manual', signal });
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        url = redirectTarget(url, response, hop, name, fail);
        continue;
      }
      const raw = await readCapped(response);
      if (!response.ok) {
        const said = forgeMessageOf(raw);
        throw fail(`${name} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${said ? `: ${said}` : ''}`, response.status);
      }
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        throw fail(`${name} answered ${response.status} without JSON, so the pull request's address is unknown`, response.status);
      }
      const answer = request.answer.safeParse(json);
      if (!answer.success) throw fail(`${name} answered ${response.status} without the pull request's web URL and number`, response.status);
      return answer.data;
    }
  } catch (error) {
    if (error instanceof ForgeRequestError) throw error;
    if (timeout.aborted) throw fail(`${name} did not answer within ${timeoutMs / 1000} s (${apiUrl})`);
    if (options.signal?.aborted) throw fail(`Opening the pull request on ${name} was stopped`);
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message;
    throw fail(`Could not reach ${name} at ${apiUrl}: ${(error as Error).message}${cause ? ` (${cause})` : ''}`);
  }
}

/** The next URL of a same-origin 307 or 308; anything else ends the attempt with the reason. */
function redirectTarget(from: string, response: Response, hop: number, name: string, fail: (message: string, status: number) => ForgeRequestError): string {
  const location = response.headers.get('location');
  if (!location || !URL.canParse(location, from)) throw fail(`${name} answered ${response.status} without a usable Location`, response.status);
  const target = new URL(location, from);
  if (target.origin !== new URL(from).origin)
    throw fail(`${name} answered ${response.status} with a redirect to ${target.host}; the token is sent only to ${new URL(from).host}`, response.status);
  // 301, 302 and 303 turn a POST into a GET, which cannot open a pull request.
  if (response.status !== 307 && response.status !== 308)
    throw fail(`${name} answered ${response.status} (a redirect to ${target.pathname}), which a POST cannot follow`, response.status);
  if (hop >= MAX_REDIRECTS) throw fail(`${name} redirected more than ${MAX_REDIRECTS} times`, response.status);
  return target.href;
}

/** An API base URL the token may go to: https, or http to this machine (trailing slashes dropped). */
function checkedApiUrl(raw: string): string {
  if (!URL.canParse(raw)) throw new Error(`The forge API URL ${raw} is not a URL`);
  const url = new URL(raw);
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error(`The forge API URL must be https (http only for 127.0.0.1 or localhost), not ${url.protocol}`);
  if (url.username || url.password || url.search || url.hash) throw new Error('The forge API URL must not hold credentials, a query or a fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The answer as text, at most {@link MAX_ANSWER_BYTES}. */
async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_ANSWER_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

/** `text` with the token, and its URL-encoded form, replaced: a forge may echo what it was sent. */
function redactToken(text: string, token: string): string {
  if (token.length < 4) return text;
  return [token, encodeURIComponent(token)].reduce((out, form) => out.replaceAll(form, '[redacted]'), text);
}
