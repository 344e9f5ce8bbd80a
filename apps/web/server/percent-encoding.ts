import type { ServerResponse } from 'node:http';
import { API_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from '../src/lib/security-headers';

/**
 * Request targets whose percent-encoding does not decode are refused here, in front of Next, with
 * a 400: Next and the route handlers decode paths and queries (`decodeURIComponent`) and answered
 * such a target with a 500 (issue #33: `/api/v1/...`, `/api/trpc/...`, `/t/.../runs`, the run
 * stream, the workspace tarball). One check here covers every route, present and future.
 */

/** A part of a request target that does not decode, and where it was. */
interface UndecodablePart {
  in: 'path' | 'query';
  /** The part as sent, cut to a length fit to show. */
  text: string;
}

const SHOWN_LENGTH = 120;

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first path segment, or query name or value, of a request target (`/path?query`) that does
 * not decode: a `%` not followed by two hex digits (`%ZZ`), or bytes that are not UTF-8 (a lone
 * surrogate `%ED%A0%80`, an overlong `%C0%AF`, a cut sequence `%E2%82`). `decodeURIComponent`
 * is the judge, as it is what the code behind uses. Null when everything decodes.
 */
export function undecodablePart(target: string): UndecodablePart | null {
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = queryAt < 0 ? '' : target.slice(queryAt + 1);
  const shown = (text: string) => (text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text);
  for (const segment of path.split('/')) if (!decodes(segment)) return { in: 'path', text: shown(segment) };
  for (const piece of query.split(/[&=]/)) if (!decodes(piece)) return { in: 'query', text: shown(piece) };
  return null;
}

/** Whether a target is under `/api` (answered like the REST API's errors). */
function isApi(target: string): boolean {
  return /^\/api(?:[/?]|$)/.test(target);
}

/**
 * Answers 400 for a target {@link undecodablePart} refused: under `/api` an RFC 9457
 * `application/problem+json` body like every REST error; a page gets the same sentence as plain
 * text. The headers are the API's (nothing here is a document to render).
 */
export function refuseUndecodable(target: string, part: UndecodablePart, res: ServerResponse): void {
  const where = part.in === 'path' ? 'path segment' : 'query parameter';
  const detail = `Malformed percent-encoding in the request ${where} ${JSON.stringify(part.text)}: each % must start two hex digits, and the bytes they make must be UTF-8`;
  for (const header of STATIC_SECURITY_HEADERS) res.setHeader(header.key, header.value);
  res.setHeader('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
  res.setHeader('Cache-Control', 'no-store');
  if (isApi(target)) {
    res.writeHead(400, { 'Content-Type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail, code: 'BAD_REQUEST' }));
  } else {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`400 Bad Request\n\n${detail}\n`);
  }
}
