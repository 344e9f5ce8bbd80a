import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePrincipal } from '../auth/principal';
import { filesFixture, type FilesFixture } from '../routers/sessions-files.fixtures';
import { sessionArchive } from '../services/sessions-archive.service';
import { issueToken, sessionOf } from '../testing/fixtures';
import { serveApi, type ServedApi } from '../testing/node-server';
import { apiTestbed } from '../testing/testbed';

/**
 * The workspace download: the service both the route and tests use, and the HTTP route itself
 * (the same handler the Next route calls) for its status codes, headers and bytes.
 */
const tb = apiTestbed({ agent: true });
let fx: FilesFixture;
let served: ServedApi;
let runId: string;
let main: string;
let first: { commit: string; seq: number };
let second: { commit: string; seq: number };
let viewerToken: string;
let outsiderToken: string;
const scratch: string[] = [];

beforeAll(async () => {
  fx = await filesFixture(tb);
  ({ runId, sessionId: main } = await fx.newRun());
  first = await fx.commit(runId, main, { 'README.md': '# one\n', 'src/a.ts': 'a1\n' });
  second = await fx.commit(runId, main, { 'src/a.ts': 'a2\n', 'src/b.ts': 'b\n' });
  served = await serveApi(fx.deps, { db: tb.db, bus: tb.live.bus });
  viewerToken = (await issueToken(tb.db, tb.fx.teamId, tb.fx.members.viewer.id, 'viewer')).secret;
  outsiderToken = (await issueToken(tb.db, tb.fx.otherTeamId, tb.fx.outsider.id, 'admin')).secret;
});
afterAll(async () => {
  await served?.close();
  await fx?.close();
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

/** The files of a tar.gz, path → content. */
async function untar(bytes: Buffer): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-untar-'));
  scratch.push(dir);
  await writeFile(join(dir, 'archive.tar.gz'), bytes);
  await promisify(execFile)('tar', ['-xzf', 'archive.tar.gz', '-C', dir, '--one-top-level=out'], { cwd: dir });
  const { stdout } = await promisify(execFile)('find', ['.', '-type', 'f'], { cwd: join(dir, 'out') });
  const files: Record<string, string> = {};
  for (const path of stdout.split('\n').filter(Boolean).sort()) files[path.slice(2)] = await readFile(join(dir, 'out', path), 'utf8');
  return files;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const download = (sessionId: string, query = '', token?: string) =>
  fetch(`${served.url}/api/sessions/${sessionId}/workspace.tar.gz${query}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

describe('sessionArchive', () => {
  it('is the workspace at the event asked for, or at the latest one', async () => {
    const principal = (await resolvePrincipal(tb.db, { session: sessionOf(tb.fx.members.viewer.id), authorization: null }))!;
    const then = await sessionArchive(fx.deps, principal, main, String(first.seq));
    expect(then).toMatchObject({ runId, sessionId: main, atEvent: first.seq, commit: first.commit, filename: `${main}-${first.seq}.tar.gz` });
    expect(await untar(await bytesOf(then.stream))).toEqual({ 'README.md': '# one\n', 'src/a.ts': 'a1\n' });
    const latest = await sessionArchive(fx.deps, principal, main, null);
    expect(latest).toMatchObject({ atEvent: second.seq, commit: second.commit });
    expect(await untar(await bytesOf(latest.stream))).toEqual({ 'README.md': '# one\n', 'src/a.ts': 'a2\n', 'src/b.ts': 'b\n' });
  });

  it('is NOT_FOUND for another team’s member, like a session that does not exist', async () => {
    const outsider = (await resolvePrincipal(tb.db, { session: sessionOf(tb.fx.outsider.id), authorization: null }))!;
    await expect(sessionArchive(fx.deps, outsider, main, null)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No such session' });
    await expect(sessionArchive(fx.deps, outsider, 'no-such-session', null)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No such session' });
  });
});

describe('GET /api/sessions/{id}/workspace.tar.gz', () => {
  it('streams the tarball as an attachment named after the session and event', async () => {
    const response = await download(main, `?atEvent=${first.seq}`, viewerToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${main}-${first.seq}.tar.gz"`);
    expect(await untar(Buffer.from(await response.arrayBuffer()))).toEqual({ 'README.md': '# one\n', 'src/a.ts': 'a1\n' });
    const latest = await download(main, '', viewerToken);
    expect(latest.headers.get('content-disposition')).toBe(`attachment; filename="${main}-${second.seq}.tar.gz"`);
    expect(Object.keys(await untar(Buffer.from(await latest.arrayBuffer())))).toEqual(['README.md', 'src/a.ts', 'src/b.ts']);
  });

  it('is 401 signed out, 404 for another team and for no session', async () => {
    const signedOut = await download(main);
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: { message: 'Sign in or send a valid API token' } });
    for (const [sessionId, token] of [
      [main, outsiderToken],
      ['missing-session', viewerToken],
      ['bad%20id', viewerToken],
    ] as const) {
      const response = await download(sessionId, '', token);
      expect(response.status, sessionId).toBe(404);
      expect(await response.json()).toEqual({ error: { message: 'No such session' } });
    }
    // A bad event for another team's session still says only 404.
    expect((await download(main, '?atEvent=abc', outsiderToken)).status).toBe(404);
  });

  it('is 400 with a JSON message for a bad atEvent', async () => {
    const { lastSeq } = await tb.db.session.findUniqueOrThrow({ where: { id: main }, select: { lastSeq: true } });
    const cases: [string, string][] = [
      ['?atEvent=abc', 'atEvent must be a whole number between 1 and 2147483647'],
      ['?atEvent=', 'atEvent must be a whole number between 1 and 2147483647'],
      ['?atEvent=0', 'atEvent must be a whole number between 1 and 2147483647'],
      ['?atEvent=-1', 'atEvent must be a whole number between 1 and 2147483647'],
      ['?atEvent=1.5', 'atEvent must be a whole number between 1 and 2147483647'],
      ['?atEvent=99999999999', 'atEvent must be a whole number between 1 and 2147483647'],
      [`?atEvent=${lastSeq + 1}`, `Session ${main} has ${lastSeq} committed event(s); atEvent must be between 1 and ${lastSeq}`],
    ];
    for (const [query, message] of cases) {
      const response = await download(main, query, viewerToken);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json(), query).toEqual({ error: { message } });
    }
  });

  it('is 412 when the server has no workspace store', async () => {
    const bare = await serveApi(tb.deps, { db: tb.db, bus: tb.live.bus });
    try {
      const response = await fetch(`${bare.url}/api/sessions/${main}/workspace.tar.gz`, { headers: { authorization: `Bearer ${viewerToken}` } });
      expect(response.status).toBe(412);
      expect(await response.json()).toEqual({ error: { message: 'Session files are not readable on this server: it has no workspace store configured' } });
    } finally {
      await bare.close();
    }
  });
});
