import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, chainHash, type AuditRowContent } from './chain';
import { toExportLine, verifyAuditExport, type ChainedAuditRow } from './chain-verify';

/** A sound chain of `n` rows for team t1, built with the same hashing the database append uses. */
function chain(n: number): ChainedAuditRow[] {
  const rows: ChainedAuditRow[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const content: AuditRowContent = {
      teamId: 't1',
      seq,
      actorType: 'user',
      actorId: `u${seq % 3}`,
      action: seq % 2 ? 'policy.saved' : 'endpoint.created',
      targetType: 'policy',
      targetId: `p${seq}`,
      data: { n: seq, nested: { b: 2, a: [1, 2] } },
      ip: '127.0.0.1',
      createdAt: new Date(Date.UTC(2026, 10, 30, 0, 0, seq)).toISOString(),
    };
    const hash = chainHash(prev, content);
    rows.push({ ...content, prevHash: prev, hash });
    prev = hash;
  }
  return rows;
}

function exportOf(rows: ChainedAuditRow[], claimed = rows.length, headHash = rows.at(-1)?.hash ?? GENESIS_HASH): string[] {
  const header = JSON.stringify({ format: 'looplane.audit.v1', teamId: 't1', rows: claimed, headHash, exportedAt: '2026-11-30T01:00:00.000Z' });
  return [header, ...rows.map(toExportLine)];
}

const verify = (lines: string[]) => verifyAuditExport(`${lines.join('\n')}\n`);

describe('offline verification of an audit export', () => {
  it('accepts an untouched export and reports its rows and head hash', () => {
    const rows = chain(6);
    expect(verify(exportOf(rows))).toEqual({ ok: true, teamId: 't1', rows: 6, headHash: rows[5]!.hash });
    expect(verify(exportOf([]))).toMatchObject({ ok: true, rows: 0 });
  });

  it('fails on an edited line, naming that line', () => {
    for (const [field, value] of [
      ['action', 'policy.deleted'],
      ['actorId', 'mallory'],
      ['data', { n: 99 }],
      ['createdAt', '2026-11-30T00:00:09.000Z'],
      ['ip', null],
    ] as const) {
      const lines = exportOf(chain(5));
      const row = JSON.parse(lines[3]!) as Record<string, unknown>;
      lines[3] = JSON.stringify({ ...row, [field]: value });
      expect(verify(lines)).toMatchObject({ ok: false, line: 4, seq: 3, reason: expect.stringMatching(/edited/) });
    }
  });

  it('fails on an edited line whose hash was recomputed (the next link breaks)', () => {
    const rows = chain(5);
    const forged = { ...rows[1]!, action: 'nothing.happened' };
    const { prevHash, hash: _hash, ...content } = forged;
    forged.hash = chainHash(prevHash, content);
    const lines = exportOf([rows[0]!, forged, ...rows.slice(2)]);
    expect(verify(lines)).toMatchObject({ ok: false, line: 4, seq: 3, reason: expect.stringMatching(/prevHash/) });
  });

  it('fails on a removed line: first, middle and last', () => {
    const rows = chain(5);
    expect(verify(exportOf(rows.slice(1), 4))).toMatchObject({ ok: false, line: 2, reason: expect.stringMatching(/seq 2 where seq 1/) });
    expect(verify(exportOf([...rows.slice(0, 2), ...rows.slice(3)]))).toMatchObject({ ok: false, line: 4, seq: 4 });
    // The chain of the first four is sound; only the header shows the fifth is gone.
    expect(verify(exportOf(rows).slice(0, -1))).toMatchObject({ ok: false, reason: expect.stringMatching(/header says 5 rows, the file has 4/) });
    expect(verify(exportOf(rows.slice(0, 4), 4, rows[4]!.hash))).toMatchObject({ ok: false, reason: expect.stringMatching(/headHash/) });
  });

  it('fails on reordered lines', () => {
    const lines = exportOf(chain(5));
    [lines[2], lines[3]] = [lines[3]!, lines[2]!];
    expect(verify(lines)).toMatchObject({ ok: false, line: 3, seq: 3, reason: expect.stringMatching(/reordered/) });
  });

  it('fails on an inserted or duplicated line and on a line that is not a row', () => {
    const lines = exportOf(chain(4));
    expect(verify([...lines.slice(0, 3), lines[2]!, ...lines.slice(3)])).toMatchObject({ ok: false, line: 4 });
    expect(verify([...lines.slice(0, 2), '{"hello":1}', ...lines.slice(2)])).toMatchObject({ ok: false, line: 3, reason: 'the line is not an audit row' });
    expect(verify([...lines.slice(0, 2), 'not json', ...lines.slice(2)])).toMatchObject({ ok: false, line: 3 });
  });

  it('fails without a header, on an empty file and on a row of another team', () => {
    const rows = chain(3);
    expect(verify(rows.map(toExportLine))).toMatchObject({ ok: false, line: 1, reason: expect.stringMatching(/header/) });
    expect(verifyAuditExport('')).toMatchObject({ ok: false, reason: 'the file is empty' });
    const lines = exportOf(rows);
    lines[1] = toExportLine({ ...rows[0]!, teamId: 't2' });
    expect(verify(lines)).toMatchObject({ ok: false, line: 2, reason: expect.stringMatching(/team t2/) });
  });
});
