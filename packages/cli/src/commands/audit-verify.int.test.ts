import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTeamAudit, recordAudit } from '@looplane/db';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { runCli } from '../cli';
import { Printer } from '../printer';

const bin = fileURLToPath(new URL('../../bin/looplane.mjs', import.meta.url));
let t: TestDatabase;
let dir: string;
let lines: string[];

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(join(tmpdir(), 'looplane-audit-'));
  const team = await t.db.team.create({ data: { slug: 'cli-audit', name: 'CLI audit' } });
  for (let i = 1; i <= 5; i++) {
    await recordAudit(t.db, {
      teamId: team.id,
      actor: { type: 'user', userId: 'u1' },
      action: 'endpoint.updated',
      targetType: 'endpoint',
      targetId: `e${i}`,
      data: { i },
    });
  }
  lines = (await exportTeamAudit(t.db, team.id)).text.trimEnd().split('\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await t?.drop();
});

async function fileWith(name: string, content: string[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${content.join('\n')}\n`);
  return path;
}

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, new Printer({ write: (s: string) => (out += s) }, { write: (s: string) => (err += s) }));
  return { code, out, err };
}

describe('looplane audit verify FILE (an export of a real database)', () => {
  it('exits 0 for an untouched export (the real binary)', async () => {
    const path = await fileWith('sound.jsonl', lines);
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, 'audit', 'verify', path], { env: { PATH: process.env.PATH ?? '', HOME: dir } });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Chain verified: 5 rows of team \S+, head [0-9a-f]{64}\n$/);
  });

  it('exits 1 naming the first broken line for an edited line', async () => {
    const edited = [...lines];
    edited[3] = edited[3]!.replace('"endpoint.updated"', '"endpoint.viewed"');
    const { code, out } = await cli('audit', 'verify', await fileWith('edited.jsonl', edited));
    expect(code).toBe(1);
    expect(out).toContain("Chain broken at line 4 (seq 3): hash does not match the row's content (the row was edited)");
  });

  it('exits 1 for a removed line and for reordered lines', async () => {
    const removed = lines.filter((_, i) => i !== 2);
    expect(await cli('audit', 'verify', await fileWith('removed.jsonl', removed))).toMatchObject({ code: 1, out: expect.stringContaining('line 3 (seq 3)') });
    const reordered = [lines[0]!, lines[1]!, lines[3]!, lines[2]!, ...lines.slice(4)];
    expect(await cli('audit', 'verify', await fileWith('reordered.jsonl', reordered))).toMatchObject({
      code: 1,
      out: expect.stringContaining('line 3 (seq 3)'),
    });
    expect(await cli('audit', 'verify', await fileWith('cut.jsonl', lines.slice(0, -1)))).toMatchObject({
      code: 1,
      out: expect.stringContaining('header says 5 rows'),
    });
  });

  it('--json prints the verdict as one object', async () => {
    const good = await cli('audit', 'verify', await fileWith('good.jsonl', lines), '--json');
    expect(good.code).toBe(0);
    expect(JSON.parse(good.out)).toMatchObject({ ok: true, rows: 5 });
    const bad = await cli('audit', 'verify', '--json', await fileWith('bad.jsonl', [lines[0]!, lines[2]!]));
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ ok: false, line: 2, seq: 2 });
  });

  it('exits 1 for a missing file and 2 for wrong usage', async () => {
    expect(await cli('audit', 'verify', join(dir, 'nope.jsonl'))).toMatchObject({ code: 1, err: expect.stringMatching(/^error: cannot read/) });
    expect(await cli('audit', 'check', 'x')).toMatchObject({ code: 2, err: expect.stringContaining('unknown audit subcommand "check"') });
    expect(await cli('audit', 'verify')).toMatchObject({ code: 2 });
  });
});
