import { describe, expect, it } from 'vitest';
import { filterCrossing } from './crossing-filter';
import { dataRuleSchema } from './swarm-rules';

describe('edge data rules', () => {
  it('redacts every match before measuring, and refuses a goal over the bytes-in limit', () => {
    const rule = dataRuleSchema.parse({ maxBytesIn: 30, redact: ['sk-[a-z0-9]+', '\\d{3}-\\d{4}'] });
    expect(filterCrossing('key sk-abc123 and sk-zz, call 555-1234', rule, 'in')).toMatchObject({
      text: '',
      redactions: 3,
      bytesBefore: 38,
      refused: 'the goal is 46 bytes; the edge admits at most 30',
    });
    expect(filterCrossing('use sk-abc123', rule, 'in')).toMatchObject({ text: 'use [redacted]', redactions: 1, refused: null, bytes: 14 });
  });

  it('cuts a result over the bytes-out limit on a character boundary', () => {
    const rule = dataRuleSchema.parse({ maxBytesOut: 5 });
    expect(filterCrossing('héllo wörld', rule, 'out')).toMatchObject({ text: 'héll', bytes: 5, truncated: true, bytesBefore: 13 });
  });

  it('refuses patterns that do not compile, match nothing but the empty string, or nest quantifiers', () => {
    for (const pattern of ['(unclosed', 'a*', '(a+)+', '(x*)*b', '(a|aa)+', '(ab){2,}+']) {
      expect(dataRuleSchema.safeParse({ redact: [pattern] }).success, pattern).toBe(false);
    }
    for (const pattern of ['sk-[A-Za-z0-9]{8,}', '(foo|bar)', '\\d+', 'a(b)c+']) {
      expect(dataRuleSchema.safeParse({ redact: [pattern] }).success, pattern).toBe(true);
    }
  });
});
