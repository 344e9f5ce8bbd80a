import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { truncateSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { craftedTar, systemTar, zipOf } from '@looplane/workspaces/testing';
import { issueToken, sessionOf } from '../testing/fixtures';
import { problemOf, restClient, type RestReply } from '../testing/rest-client';
import { restTestbed } from '../testing/rest-testbed';
import { uploadLimits } from '../services/upload-limits';
import { upload } from './schemas/uploads.schemas';
import { handleTrpcRequest } from '../http';
import { handleTeamUpload } from './team-upload';

/**
 * `POST /api/v1/uploads` and `GET /api/v1/uploads/{uploadId}` over real HTTP, with an upload limit
 * of 1 MiB (so 10 MiB unpacked): a good archive is stored byte for byte with its audit row; a bad
 * one is refused with the entry named and stores nothing; the dashboard's cookie route is the
 * same route.
 */
const rest = restTestbed({ deps: { uploads: uploadLimits(1) } });
const MIB = 1024 * 1024;

const project = {
  'README.md': '# project\n',
  'src/index.ts': 'export const answer = 42;\n',
  'bin/run': { content: '#!/bin/sh\necho run\n', mode: 0o755 },
  'src/alias.ts': { symlink: 'index.ts' },
};

/** A multipart body with one field `file`. */
function form(bytes: Buffer, name: string): FormData {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(bytes)]), name);
  return body;
}

/** Upload rows and audit rows: what a refused upload must leave as it was. */
async function counts() {
  return { uploads: await rest.tb.db.upload.count(), audit: await rest.tb.db.auditLog.count({ where: { action: 'upload.created' } }) };
}

/** Sends `bytes` as the body (optionally declaring a longer one) and stops at the answer, for the 413 cases. */
function rawPost(path: string, headers: Record<string, string | number>, bytes: Buffer): Promise<RestReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(rest.url + path), { method: 'POST', headers: { authorization: `Bearer ${rest.token('operator')}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          headers: new Headers(res.headers as Record<string, string>),
          body: JSON.parse(Buffer.concat(chunks).toString()),
        });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
    req.write(bytes);
  });
}

describe('POST /api/v1/uploads', () => {
  it('stores a tar.gz sent as multipart: 201, the bytes as sent, its metadata and an audit row; GET shows it', async () => {
    const bytes = systemTar(project, ['-z']);
    const reply = await rest.as('operator').call('createUpload', { body: form(bytes, 'project.tar.gz') });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const created = upload.parse(reply.body);
    expect(created).toMatchObject({
      filename: 'project.tar.gz',
      format: 'tar.gz',
      bytes: bytes.length,
      files: 6,
      unpackedBytes: 10 + 26 + 19,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      usedAt: null,
    });
    expect(Date.parse(created.expiresAt!) - Date.parse(created.createdAt)).toBe(24 * 3600_000);

    const row = await rest.tb.db.upload.findUniqueOrThrow({ where: { id: created.id } });
    expect(Buffer.from(row.data).equals(bytes)).toBe(true);
    expect(row).toMatchObject({ teamId: rest.tb.fx.teamId, createdById: rest.tb.fx.members.operator.id });
    expect(row.createdByTokenId).not.toBeNull();
    const audit = await rest.tb.db.auditLog.findFirstOrThrow({ where: { action: 'upload.created', targetId: created.id } });
    expect(audit).toMatchObject({ actorType: 'token', targetType: 'upload', data: { filename: 'project.tar.gz', format: 'tar.gz', files: 6 } });

    expect(await rest.as('viewer').ok('getUpload', upload, { params: { uploadId: created.id } })).toEqual(created);
  });

  it('stores a zip sent raw, named by Content-Disposition or ?filename= (which wins), or upload.<format>', async () => {
    const bytes = await zipOf([
      { name: 'a/b.txt', content: 'hello' },
      { name: 'a/c/', directory: true },
    ]);
    const api = rest.as('operator');
    const raw = (headers: Record<string, string>, query?: Record<string, string>) =>
      api.call('createUpload', { body: new Uint8Array(bytes), headers: { 'content-type': 'application/zip', ...headers }, ...(query ? { query } : {}) });
    const named = upload.parse((await raw({ 'content-disposition': 'attachment; filename="site.zip"' })).body);
    expect(named).toMatchObject({ filename: 'site.zip', format: 'zip', files: 3, unpackedBytes: 5 });
    const utf8 = upload.parse((await raw({ 'content-disposition': "attachment; filename*=UTF-8''caf%C3%A9.zip" })).body);
    expect(utf8.filename).toBe('café.zip');
    expect(upload.parse((await raw({ 'content-disposition': 'attachment; filename="x.zip"' }, { filename: 'chosen.zip' })).body).filename).toBe('chosen.zip');
    expect(upload.parse((await raw({})).body).filename).toBe('upload.zip');
    // A zip sent as application/octet-stream is still a zip: the bytes decide.
    const octet = await api.call('createUpload', {
      body: new Uint8Array(bytes),
      headers: { 'content-type': 'application/octet-stream' },
      query: { filename: 'x.tgz' },
    });
    expect(upload.parse(octet.body)).toMatchObject({ filename: 'x.tgz', format: 'zip' });
    const row = await rest.tb.db.upload.findUniqueOrThrow({ where: { id: named.id } });
    expect(Buffer.from(row.data).equals(bytes)).toBe(true);
  });

  const TWO_GB = 2 * 1024 ** 3;
  const refusals: Array<[string, () => Buffer | Promise<Buffer>, RegExp]> = [
    ['a ../ path', () => craftedTar([{ name: '../x', content: 'x' }]), /entry "\.\.\/x" has a "\.\." segment/],
    ['an absolute path', () => gzipSync(craftedTar([{ name: '/etc/x', content: 'x' }])), /entry "\/etc\/x" is an absolute path/],
    [
      'a symbolic link to /etc/passwd',
      () => systemTar({ passwd: { symlink: '/etc/passwd' } }, ['-z']),
      /entry "passwd" is a symbolic link to the absolute path "\/etc\/passwd"/,
    ],
    ['a zip entry climbing out', () => zipOf([{ name: 'a/../../x', content: 'x' }]), /entry "a\/\.\.\/\.\.\/x" has a "\.\." segment/],
    ['a device node', () => craftedTar([{ name: 'dev/null', type: '3' }]), /entry "dev\/null" is a character device/],
    [
      'a 2 GB sparse file',
      () =>
        systemTar({}, ['-S', '-z'], (dir) => {
          writeFileSync(`${dir}/big`, '');
          truncateSync(`${dir}/big`, TWO_GB);
        }),
      new RegExp(`entry "big" is a sparse file declaring ${TWO_GB} bytes`),
    ],
    ['a file over the unpacked cap', () => craftedTar([{ name: 'huge', size: 11 * MIB }], { end: false }), /entry "huge" declares 11534336 bytes/],
    ['a file that is no archive', () => Buffer.from('just some text'), /is not a \.tar, \.tar\.gz \(\.tgz\) or \.zip archive/],
  ];
  for (const [what, make, message] of refusals) {
    it(`refuses ${what}: 400 naming it, and stores nothing`, async () => {
      const before = await counts();
      const reply = await rest.as('operator').call('createUpload', { body: form(await make(), 'bad.tar.gz') });
      expect(problemOf(reply, 400, 'BAD_REQUEST').detail).toMatch(new RegExp(`^"bad\\.tar\\.gz" is refused: ${message.source}`));
      expect(await counts()).toEqual(before);
    });
  }

  it.runIf(process.getuid?.() === 0)('refuses a device node made by mknod and archived by GNU tar', async () => {
    const bytes = systemTar({}, [], (dir) => execFileSync('mknod', [`${dir}/null`, 'c', '1', '3']));
    const reply = await rest.as('operator').call('createUpload', { body: new Uint8Array(bytes), headers: { 'content-type': 'application/x-tar' } });
    expect(problemOf(reply, 400).detail).toBe('the archive is refused: entry "null" is a character device');
  });

  it('refuses a body over the limit with 413 before reading it all (declared, streamed, or as a form part), and stores nothing', async () => {
    const before = await counts();
    const tooBig = randomBytes(MIB + 1);
    const limit = /^The file is larger than the limit of 1048576 bytes$/;
    const declared = await rawPost('/api/v1/uploads', { 'content-type': 'application/gzip', 'content-length': 200 * MIB }, Buffer.alloc(1024));
    expect(problemOf(declared, 413, 'PAYLOAD_TOO_LARGE').detail).toMatch(limit);
    const streamed = await rawPost('/api/v1/uploads', { 'content-type': 'application/gzip', 'transfer-encoding': 'chunked' }, tooBig);
    expect(problemOf(streamed, 413).detail).toMatch(limit);
    expect(problemOf(await rest.as('operator').call('createUpload', { body: form(tooBig, 'big.tar.gz') }), 413).detail).toMatch(limit);
    expect(await counts()).toEqual(before);
  });

  it('refuses another media type (415), an empty body or a form without its file (400)', async () => {
    const before = await counts();
    const api = rest.as('operator');
    const text = await api.call('createUpload', { body: new Uint8Array(Buffer.from('x')), headers: { 'content-type': 'text/plain' } });
    expect(problemOf(text, 415, 'UNSUPPORTED_MEDIA_TYPE').detail).toMatch(/^Send the file as multipart\/form-data \(one field, file\) .* got text\/plain$/);
    const json = await api.call('createUpload', { body: { file: 'x' } });
    expect(problemOf(json, 415).detail).toMatch(/got application\/json$/);
    const empty = await api.call('createUpload', { body: new Uint8Array(0), headers: { 'content-type': 'application/gzip' } });
    expect(problemOf(empty, 400).detail).toBe('The body is empty: send the file');
    const wrongField = new FormData();
    wrongField.append('archive', new Blob(['x']), 'a.tar');
    expect(problemOf(await api.call('createUpload', { body: wrongField }), 400).errors).toEqual([{ in: 'body', path: 'archive', message: 'unknown field' }]);
    const notAFile = new FormData();
    notAFile.append('file', 'just text');
    expect(problemOf(await api.call('createUpload', { body: notAFile }), 400).detail).toBe('file: must be a file (a part with a filename)');
    expect(await counts()).toEqual(before);
  });

  it('is the operator’s: a viewer’s token is refused (403) before its body is read, and stores nothing', async () => {
    const before = await counts();
    const reply = await rest.as('viewer').call('createUpload', { body: form(systemTar(project), 'p.tar'), query: { filename: 'p.tar' } });
    expect(problemOf(reply, 403, 'FORBIDDEN').detail).toBe('This action needs the operator role; you are viewer');
    expect(await counts()).toEqual(before);
  });
});

describe('GET /api/v1/uploads/{uploadId}', () => {
  it('is 404 for another team’s token, for an upload that expired unused, and for none at all', async () => {
    const created = await rest.as('operator').ok('createUpload', upload, { body: form(systemTar(project), 'p.tar') });
    const { fx } = rest.tb;
    const other = restClient(rest.url, (await issueToken(rest.tb.db, fx.otherTeamId, fx.outsider.id, 'admin')).secret);
    expect(problemOf(await other.call('getUpload', { params: { uploadId: created.id } }), 404, 'NOT_FOUND').detail).toMatch(/^No such upload in this team/);
    await rest.tb.db.upload.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    problemOf(await rest.as('viewer').call('getUpload', { params: { uploadId: created.id } }), 404, 'NOT_FOUND');
    problemOf(await rest.as('viewer').call('getUpload', { params: { uploadId: 'cnosuchupload0000000000' } }), 404, 'NOT_FOUND');
  });
});

describe('POST /api/teams/{teamId}/uploads (the dashboard, with its session cookie)', () => {
  const send = (teamId: string, userId: string, body: FormData, headers: Record<string, string> = {}) =>
    handleTeamUpload(new Request(`http://localhost/api/teams/${teamId}/uploads?filename=from-dashboard.tar`, { method: 'POST', body, headers }), teamId, {
      deps: rest.tb.deps,
      session: sessionOf(userId),
      ip: null,
    });

  it('stores as the REST route does, as the member (no token), and refuses what the route refuses', async () => {
    const { fx } = rest.tb;
    const bytes = systemTar(project);
    const response = await send(fx.teamId, fx.members.operator.id, form(bytes, 'ignored.tar'));
    expect(response.status).toBe(201);
    const created = upload.parse(await response.json());
    expect(created).toMatchObject({ filename: 'from-dashboard.tar', format: 'tar', files: 6 });
    expect(await rest.tb.db.upload.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      createdById: fx.members.operator.id,
      createdByTokenId: null,
    });
    expect(await rest.tb.db.auditLog.count({ where: { action: 'upload.created', targetId: created.id, actorType: 'user' } })).toBe(1);

    const before = await counts();
    const bad = await send(fx.teamId, fx.members.operator.id, form(craftedTar([{ name: '../x', content: 'x' }]), 'bad.tar'));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toBe('"from-dashboard.tar" is refused: entry "../x" has a ".." segment');
    expect((await send(fx.teamId, fx.members.viewer.id, form(bytes, 'x.tar'))).status).toBe(403);
    expect((await send(fx.otherTeamId, fx.members.operator.id, form(bytes, 'x.tar'))).status).toBe(404);
    const crossSite = await send(fx.teamId, fx.members.operator.id, form(bytes, 'x.tar'), { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await counts()).toEqual(before);
  });
});

describe('uploads.create over tRPC', () => {
  it('cannot carry bytes in JSON: 400 pointing to the upload routes, and stores nothing', async () => {
    const before = await counts();
    const input = { json: { teamId: rest.tb.fx.teamId, filename: 'x.tar', data: [...systemTar(project)] } };
    const response = await handleTrpcRequest(
      new Request('http://localhost/api/trpc/uploads.create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) }),
      { deps: rest.tb.deps, endpoint: '/api/trpc', session: sessionOf(rest.tb.fx.members.operator.id), ip: null },
    );
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(
      'data: must be the archive’s bytes: send it to POST /api/v1/uploads or /api/teams/{teamId}/uploads',
    );
    expect(await counts()).toEqual(before);
  });
});
