/** The largest private key a secret holds, in bytes (a 16384-bit RSA key in PEM is about 12 KB). */
export const MAX_PRIVATE_KEY_BYTES = 16 * 1024;

/** What an ssh_key value must look like, for the message of every refusal. */
const EXPECTED = 'must be a private key in OpenSSH or PEM form (-----BEGIN … PRIVATE KEY----- … -----END … PRIVATE KEY-----)';
const BEGIN = /^-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----$/;
const END = /^-----END ((?:[A-Z0-9]+ )*)PRIVATE KEY-----$/;
const BASE64_LINE = /^[A-Za-z0-9+/=]+$/;
/** An RFC 1421 header line of a legacy PEM key (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`). */
const PEM_HEADER = /^[A-Za-z-]+: .+$/;
const OPENSSH_MAGIC = 'openssh-key-v1\u0000';
/** The worker has no way to type a passphrase, so a protected key could never be used. */
const PROTECTED = 'is protected by a passphrase; store the key without one (ssh-keygen -p -N "" -f <key>)';

export type PrivateKeyText = { ok: true; normalized: string } | { ok: false; reason: string };

/**
 * Checks that text is one unprotected private key as `ssh` reads it: an OpenSSH key or a PEM
 * (PKCS#1, PKCS#8, SEC1) key, nothing before or after it. Line breaks other than `\n` are made
 * `\n` (a browser's textarea sends `\r\n`) and the key ends with one newline, as key files must.
 * The reason never quotes the text.
 */
export function readPrivateKey(text: string): PrivateKeyText {
  if (Buffer.byteLength(text, 'utf8') > MAX_PRIVATE_KEY_BYTES) return { ok: false, reason: `must be at most ${MAX_PRIVATE_KEY_BYTES} bytes` };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point; only line breaks may appear.
  if (/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return { ok: false, reason: 'must not contain control characters other than line breaks' };
  const lines = text.replace(/\r\n?/g, '\n').trim().split('\n');
  const begin = BEGIN.exec(lines[0] ?? '');
  const end = END.exec(lines.at(-1) ?? '');
  if (!begin || !end || lines.length < 3) return { ok: false, reason: EXPECTED };
  const label = begin[1]!;
  if (end[1] !== label) return { ok: false, reason: `must end with -----END ${label}PRIVATE KEY----- as it begins` };
  if (label === 'ENCRYPTED ') return { ok: false, reason: PROTECTED };
  const body = lines.slice(1, -1);
  const headers = body.filter((line) => PEM_HEADER.test(line));
  if (headers.some((line) => /^Proc-Type: 4,ENCRYPTED$/.test(line))) return { ok: false, reason: PROTECTED };
  const data = body.filter((line) => !PEM_HEADER.test(line) && line !== '');
  if (data.length === 0 || !data.every((line) => BASE64_LINE.test(line))) return { ok: false, reason: `${EXPECTED}: the lines between must be base64` };
  if (label === 'OPENSSH ') {
    const cipher = opensshCipher(Buffer.from(data.join(''), 'base64'));
    if (cipher === null) return { ok: false, reason: `${EXPECTED}: this OPENSSH key is not in the openssh-key-v1 format` };
    if (cipher !== 'none') return { ok: false, reason: PROTECTED };
  }
  return { ok: true, normalized: `${lines.join('\n')}\n` };
}

/** The cipher an openssh-key-v1 blob names (`none` when unprotected); null when it is not one. */
function opensshCipher(blob: Buffer): string | null {
  if (blob.subarray(0, OPENSSH_MAGIC.length).toString('latin1') !== OPENSSH_MAGIC) return null;
  const at = OPENSSH_MAGIC.length;
  if (blob.length < at + 4) return null;
  const length = blob.readUInt32BE(at);
  if (length > 64 || blob.length < at + 4 + length) return null;
  return blob.subarray(at + 4, at + 4 + length).toString('latin1');
}
