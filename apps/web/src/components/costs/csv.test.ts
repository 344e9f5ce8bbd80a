import { describe, expect, it } from 'vitest';
import { formatUsd, toCsv } from './csv';

/** The cells of one CSV line with no quoted line breaks, quotes left on. */
const lines = (csv: string) => csv.split('\r\n');

describe('toCsv', () => {
  it('writes a header and CRLF rows, numbers as they are', () => {
    expect(
      toCsv(
        ['day', 'agent', 'cost_micros'],
        [
          ['2026-12-01', 'coder', 1500],
          ['2026-12-02', 'coder', 0],
        ],
      ),
    ).toBe('day,agent,cost_micros\r\n2026-12-01,coder,1500\r\n2026-12-02,coder,0\r\n');
  });

  it('quotes fields with commas, quotes and line breaks, doubling quotes', () => {
    const csv = toCsv(['name'], [['a,b'], ['say "hi"'], ['two\nlines'], ['cr\rlf']]);
    expect(csv).toBe('name\r\n"a,b"\r\n"say ""hi"""\r\n"two\nlines"\r\n"cr\rlf"\r\n');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    const attacks = ["=cmd|' /C calc'!A0", '+1', '-1', '@x', '\tfoo', '\rbar', '=HYPERLINK("http://x")'];
    const [, ...rows] = lines(
      toCsv(
        ['name'],
        attacks.map((a) => [a]),
      ),
    );
    expect(rows.slice(0, attacks.length)).toEqual([`"'=cmd|' /C calc'!A0"`, `"'+1"`, `"'-1"`, `"'@x"`, `"'\tfoo"`, `"'\rbar"`, `"'=HYPERLINK(""http://x"")"`]);
    // Nothing in the output starts a cell with a formula character.
    for (const row of rows) expect(row).not.toMatch(/^"?[=+\-@\t\r]/);
  });

  it('leaves ordinary text and numbers alone, a negative number included', () => {
    expect(toCsv(['a', 'b', 'c'], [['planner 2', -5, 'x=1']])).toBe('a,b,c\r\nplanner 2,-5,x=1\r\n');
  });
});

describe('formatUsd', () => {
  it('shows small amounts to four places and others as cents', () => {
    expect(formatUsd(1200)).toBe('$0.0012');
    expect(formatUsd(1_500_000)).toBe('$1.50');
    expect(formatUsd(1_234_000_000)).toBe('$1,234.00');
  });
});
