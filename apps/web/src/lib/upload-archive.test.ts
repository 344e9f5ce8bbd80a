import { describe, expect, it } from 'vitest';
import { readUploadAnswer } from './upload-archive';

const UPLOAD = {
  id: 'cmupload000000000000000001',
  filename: 'src.tar.gz',
  format: 'tar.gz',
  bytes: 812,
  files: 3,
  unpackedBytes: 2048,
  sha256: 'a'.repeat(64),
  createdAt: '2026-03-01T14:02:03.000Z',
  expiresAt: '2026-03-02T14:02:03.000Z',
  usedAt: null,
};

describe('the answer to an upload', () => {
  it('is the upload on 201', () => {
    expect(readUploadAnswer(201, JSON.stringify(UPLOAD))).toMatchObject({ id: UPLOAD.id, filename: 'src.tar.gz', files: 3, bytes: 812 });
  });

  it("is the problem's detail on a refusal", () => {
    const problem = { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'entry ../x leaves the archive', code: 'BAD_REQUEST' };
    expect(() => readUploadAnswer(400, JSON.stringify(problem))).toThrow('entry ../x leaves the archive');
  });

  it('says the status when the body is no problem, and refuses a 201 that is not an upload', () => {
    expect(() => readUploadAnswer(502, '<html>Bad Gateway</html>')).toThrow('The upload failed (HTTP 502).');
    expect(() => readUploadAnswer(201, '{}')).toThrow('not an upload');
  });
});
