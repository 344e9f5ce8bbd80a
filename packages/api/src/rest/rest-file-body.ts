import { readBounded } from '../http';
import { RestProblem } from './rest-problem';

/** A file sent as a request's body, and the name it came with (a header's or a form part's). */
export interface ReceivedFile {
  filename: string | undefined;
  data: Uint8Array;
}

/** Media types a raw archive may be sent as. */
const RAW_TYPES = new Set([
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-gtar',
  'application/x-compressed-tar',
  'application/zip',
  'application/x-zip-compressed',
  'application/octet-stream',
]);
/** Room for a multipart body's boundaries and part headers around the file itself. */
const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

const tooLarge = (maxBytes: number) => new RestProblem(413, 'PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes`);

/** The last name of a path a client may have sent (`C:\fakepath\x.zip`, `dir/x.zip`): a hint, so it is cut rather than refused. */
function baseName(name: string): string | undefined {
  const base = name.split(/[/\\]/).pop()?.trim();
  return base ? base : undefined;
}

/**
 * The file name of a `Content-Disposition` header: `filename*=UTF-8''…` (RFC 6266/8187) before
 * `filename="…"` or `filename=…`; undefined when it names none.
 */
function dispositionFilename(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)'[^']*'([^;\s]+)/.exec(header);
  if (extended) {
    try {
      return baseName(decodeURIComponent(extended[1]!));
    } catch {
      throw new RestProblem(400, 'BAD_REQUEST', 'Content-Disposition: filename* is not percent-encoded UTF-8', {
        errors: [{ in: 'header', path: 'Content-Disposition', message: 'filename* is not percent-encoded UTF-8' }],
      });
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(header);
  if (!plain) return undefined;
  return baseName(plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!);
}

/** A multipart body with exactly one field, `file`, holding a file. */
async function readMultipart(request: Request, maxBytes: number): Promise<ReceivedFile> {
  const bytes = await readBounded(request, maxBytes + MULTIPART_ENVELOPE_BYTES);
  if (bytes === null) throw tooLarge(maxBytes);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
  } catch {
    throw new RestProblem(400, 'BAD_REQUEST', 'The multipart/form-data body cannot be read (a missing boundary, or a cut-off part)');
  }
  const names = [...new Set(form.keys())];
  const surplus = names.filter((name) => name !== 'file');
  if (surplus.length > 0) {
    throw new RestProblem(400, 'BAD_REQUEST', `Send one field, file; unknown field: ${surplus.join(', ')}`, {
      errors: surplus.map((name) => ({ in: 'body' as const, path: name, message: 'unknown field' })),
    });
  }
  const files = form.getAll('file');
  const file = files[0];
  if (files.length !== 1 || typeof file === 'string' || file === undefined) {
    const message = files.length > 1 ? 'give one file' : 'must be a file (a part with a filename)';
    throw new RestProblem(400, 'BAD_REQUEST', `file: ${message}`, { errors: [{ in: 'body', path: 'file', message }] });
  }
  if (file.size > maxBytes) throw tooLarge(maxBytes);
  return { filename: baseName(file.name), data: new Uint8Array(await file.arrayBuffer()) };
}

/**
 * The file a file route takes: `multipart/form-data` with one field `file`, or the raw bytes as an
 * archive's media type or `application/octet-stream` (the name from `Content-Disposition`).
 * Refused before the body is buffered: a declared length over `maxBytes` (413), and a streamed
 * body the moment it passes it (413); any other media type is 415, an empty body 400.
 */
export async function readFileBody(request: Request, maxBytes: number): Promise<ReceivedFile> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return readMultipart(request, maxBytes);
  if (!RAW_TYPES.has(type)) {
    throw new RestProblem(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the file as multipart/form-data (one field, file) or as its bytes (application/gzip, application/x-tar, application/zip or application/octet-stream); got ${type || 'no content type'}`,
    );
  }
  const data = await readBounded(request, maxBytes);
  if (data === null) throw tooLarge(maxBytes);
  if (data.byteLength === 0) throw new RestProblem(400, 'BAD_REQUEST', 'The body is empty: send the file');
  return { filename: dispositionFilename(request.headers.get('content-disposition')), data };
}
