import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAgent, createTestRun, createTestTeam } from '@looplane/db/testing';
import { createTestDatabase, repoRoot, type TestDatabase } from '@looplane/testkit';

const run = promisify(execFile);
const bin = join(repoRoot, 'packages/cli/bin/looplane.mjs');
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

const doctor = (...args: string[]) =>
  run(process.execPath, [bin, 'doctor', ...args], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.url }, cwd: repoRoot }).catch(
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe('looplane doctor', () => {
  it('finds stored rows with keys superjson refuses and confirms the API serves them as stored', async () => {
    expect((await doctor()).stdout).toContain('stored JSON: no row holds a key superjson refuses.');

    // Rows as an instance before the fix holds them: an event and an approval with a model's arguments.
    const agent = await createTestAgent(t.db, await createTestTeam(t.db));
    const { runId, sessionId } = await createTestRun(t.db, agent);
    const args = '{"__proto__": {"isAdmin": true}, "constructor": 1, "prototype": [2], "note": "\\"__proto__\\": in a string only"}';
    await t.db.$executeRawUnsafe(
      `INSERT INTO "Event" ("runId", "sessionId", seq, "eventNo", type, payload) VALUES ($1, $2, 1, 1, 'tool.requested', jsonb_build_object('callId', 'call-1', 'requestId', 'req-1', 'name', 'echo', 'args', $3::jsonb))`,
      runId,
      sessionId,
      args,
    );
    // A string that only looks like such a key is not counted.
    await t.db.$executeRawUnsafe(
      `INSERT INTO "Event" ("runId", "sessionId", seq, "eventNo", type, payload) VALUES ($1, $2, 2, 2, 'message.added', $3::jsonb)`,
      runId,
      sessionId,
      '{"role":"user","text":"\\"__proto__\\": 1"}',
    );

    const text = await doctor();
    expect('code' in text ? text.code : 0).toBe(0);
    expect(text.stdout).toContain('stored JSON: 1 row(s) hold keys superjson refuses (Event.payload: 1).');
    expect(text.stdout).toContain('every one is served as stored (escaped on the wire); nothing to repair.');
    const json = await doctor('--json');
    expect(JSON.parse(json.stdout)).toEqual({ ok: true, storedJson: { rowsWithReservedKeys: { 'Event.payload': 1 }, unreadable: [] } });
  }, 60_000);

  it('refuses to run without DATABASE_URL, with one clear line', async () => {
    const result = await run(process.execPath, [bin, 'doctor'], { env: { PATH: process.env.PATH ?? '' }, cwd: repoRoot }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in result ? result.code : 0).toBe(1);
    expect(result.stderr.trim()).toBe('error: DATABASE_URL is required for looplane doctor');
  });
});
