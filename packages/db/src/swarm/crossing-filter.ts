import type { DataRule } from './swarm-rules';

/** What crosses an edge after its data rule: the text, its size, how many redactions were made. */
export interface FilteredCrossing {
  text: string;
  /** UTF-8 bytes of the text before filtering. */
  bytesBefore: number;
  /** UTF-8 bytes of what crosses. */
  bytes: number;
  redactions: number;
  truncated: boolean;
}

const REDACTED = '[redacted]';
const encoder = new TextEncoder();

function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** Cuts text to at most `maxBytes` UTF-8 bytes without splitting a character. */
function cut(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = utf8Bytes(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Replaces every match of every pattern with `[redacted]` (patterns were validated on the way in). */
function redact(text: string, patterns: readonly string[]): { text: string; redactions: number } {
  let out = text;
  let redactions = 0;
  for (const pattern of patterns) {
    out = out.replace(new RegExp(pattern, 'gu'), () => {
      redactions++;
      return REDACTED;
    });
  }
  return { text: out, redactions };
}

/**
 * Applies an edge's data rule to what crosses it. Redaction comes first (what is removed never
 * counts against the limit), then the byte limit: `refuseOver` (the goal going in) refuses a text
 * over the limit rather than send half a task; otherwise (the result coming back) it is cut.
 */
export function filterCrossing(text: string, rule: DataRule, direction: 'in' | 'out'): FilteredCrossing & { refused: string | null } {
  const bytesBefore = utf8Bytes(text);
  const redacted = redact(text, rule.redact);
  const limit = direction === 'in' ? rule.maxBytesIn : rule.maxBytesOut;
  const size = utf8Bytes(redacted.text);
  if (limit === undefined || size <= limit) {
    return { text: redacted.text, bytesBefore, bytes: size, redactions: redacted.redactions, truncated: false, refused: null };
  }
  if (direction === 'in') {
    return {
      text: '',
      bytesBefore,
      bytes: 0,
      redactions: redacted.redactions,
      truncated: false,
      refused: `the goal is ${size} bytes; the edge admits at most ${limit}`,
    };
  }
  const kept = cut(redacted.text, limit);
  return { text: kept, bytesBefore, bytes: utf8Bytes(kept), redactions: redacted.redactions, truncated: true, refused: null };
}
