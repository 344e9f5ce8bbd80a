import { Transform, type TransformCallback } from 'node:stream';

/** What a secret is replaced with, wherever it shows. */
const REDACTED = '[redacted]';

/**
 * Forms shorter than this are not searched for: they would match ordinary text (and a credential
 * that short protects nothing). Every form of a real token is far longer.
 */
const MIN_FORM_LENGTH = 8;

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64').replace(/=+$/, '');
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** The `user:pass` inside a `Basic` value, when it is one. */
function basicPair(token: string): string | null {
  if (!/^[A-Za-z0-9+/]+=*$/.test(token)) return null;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  return base64(decoded) === token.replace(/=+$/, '') && decoded.includes(':') ? decoded : null;
}

/**
 * Every form in which a response could carry one of these secret values back: the value itself;
 * the token after an auth scheme (`Bearer x` → `x`); a basic-auth pair and its password (from a
 * `Basic` value, or a value that is `user:pass` itself); and each of those base64 (padding
 * dropped, so it also matches inside a padded or longer encoding that starts with it), base64url,
 * URL-encoded and JSON-escaped.
 */
export function secretForms(values: Iterable<string>): string[] {
  const plain = new Set<string>();
  for (const raw of values) {
    const value = raw.trim();
    plain.add(value);
    const scheme = /^([A-Za-z][A-Za-z0-9_-]*)\s+(\S.*)$/.exec(value);
    const token = scheme?.[2] ?? value;
    plain.add(token);
    const pair = scheme?.[1]?.toLowerCase() === 'basic' ? basicPair(token) : token.includes(':') ? token : null;
    if (pair) {
      plain.add(pair);
      plain.add(pair.slice(pair.indexOf(':') + 1));
    }
  }
  const forms = new Set<string>();
  for (const form of plain) {
    for (const variant of [form, base64(form), base64url(form), encodeURIComponent(form), JSON.stringify(form).slice(1, -1)]) {
      if (variant.length >= MIN_FORM_LENGTH) forms.add(variant);
    }
  }
  return [...forms];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One alternation, longest first, so a form that contains another is replaced whole. */
function patternOf(forms: string[]): RegExp | null {
  if (forms.length === 0) return null;
  return new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
}

/**
 * Replaces the secret values a run could inject (in every form of {@link secretForms}) with
 * `[redacted]`: in text (a tool's output), in raw header values, and in a byte stream (a
 * response body) across chunk boundaries.
 */
export class SecretRedactor {
  /** Over JavaScript strings (text decoded as UTF-8). */
  private readonly text: RegExp | null;
  /** Over bytes read as latin1 (one char per byte): header values as Node gives them, body chunks. */
  private readonly bytes: RegExp | null;
  /** The longest form in bytes: a stream holds back one byte less, so no match is cut in two. */
  private readonly longest: number;

  constructor(values: Iterable<string>) {
    const forms = secretForms(values);
    const byteForms = forms.map((form) => Buffer.from(form, 'utf8').toString('latin1'));
    this.text = patternOf(forms);
    this.bytes = patternOf(byteForms);
    this.longest = Math.max(0, ...byteForms.map((form) => form.length));
  }

  /** Whether there is anything to redact (a run with no credentials has nothing). */
  get active(): boolean {
    return this.text !== null;
  }

  /** Text with every secret form replaced. */
  redactText(text: string): string {
    return this.text ? text.replace(this.text, REDACTED) : text;
  }

  /** A header value as Node parsed it (latin1) with every secret form replaced. */
  redactHeader(value: string): string {
    return this.bytes ? value.replace(this.bytes, REDACTED) : value;
  }

  /**
   * A transform that redacts a byte stream. It holds back the last `longest - 1` bytes of what it
   * has read until more arrive (or the stream ends), so a secret split across chunks is still
   * found; everything before that is passed on at once.
   */
  stream(): Transform {
    const pattern = this.bytes;
    const hold = Math.max(0, this.longest - 1);
    let carry = '';
    /** Replaces matches that start before `limit` (they are complete) and returns what can go on. */
    const scan = (text: string, limit: number): string => {
      if (!pattern) {
        carry = text.slice(limit);
        return text.slice(0, limit);
      }
      let out = '';
      let last = 0;
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match && match.index < limit; match = pattern.exec(text)) {
        out += text.slice(last, match.index) + REDACTED;
        last = match.index + match[0].length;
      }
      const cut = Math.max(last, limit);
      carry = text.slice(cut);
      return out + text.slice(last, cut);
    };
    return new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
        const text = carry + chunk.toString('latin1');
        const out = scan(text, Math.max(0, text.length - hold));
        callback(null, out.length ? Buffer.from(out, 'latin1') : undefined);
      },
      flush(callback: TransformCallback) {
        const out = scan(carry, carry.length);
        callback(null, out.length ? Buffer.from(out, 'latin1') : undefined);
      },
    });
  }
}
