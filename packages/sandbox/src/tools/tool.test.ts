import { AppError } from '@looplane/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './tool';

const CALL = { sessionId: 's1' };
const tool = (fail: () => never) => defineTool({ name: 'demo', description: 'd', idempotent: true }, z.object({ n: z.int() }).strict(), async () => fail());

describe('defineTool', () => {
  it('generates the JSON schema from the zod schema', () => {
    const t = defineTool({ name: 'demo', description: 'd', idempotent: true }, z.object({ n: z.int().describe('a number') }).strict(), async () => ({
      ok: true,
      output: '',
    }));
    expect(t.spec).toEqual({
      name: 'demo',
      description: 'd',
      idempotent: true,
      parameters: {
        type: 'object',
        properties: { n: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991, description: 'a number' } },
        required: ['n'],
        additionalProperties: false,
      },
    });
  });

  it('turns bad arguments, client errors and file-system errors into tool failures, without host paths', async () => {
    expect(
      (
        await tool(() => {
          throw new Error('x');
        }).run({ n: 'one' }, CALL)
      ).output,
    ).toMatch(/^invalid arguments/);
    expect(
      await tool(() => {
        throw new AppError('NOT_FOUND', 'no such file: a');
      }).run({ n: 1 }, CALL),
    ).toEqual({ ok: false, output: 'no such file: a' });
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/var/lib/looplane/ws/s/work/a'"), { code: 'ENOENT' });
    expect(
      await tool(() => {
        throw enoent;
      }).run({ n: 1 }, CALL),
    ).toEqual({ ok: false, output: 'file system error: ENOENT' });
  });

  it('throws infrastructure failures and cancellations', async () => {
    await expect(
      tool(() => {
        throw new AppError('INTERNAL', 'git failed');
      }).run({ n: 1 }, CALL),
    ).rejects.toThrow('git failed');
    await expect(
      tool(() => {
        throw new AppError('PRECONDITION_FAILED', 'misconfigured');
      }).run({ n: 1 }, CALL),
    ).rejects.toThrow('misconfigured');
    const controller = new AbortController();
    controller.abort();
    await expect(
      tool(() => {
        throw new AppError('NOT_FOUND', 'x');
      }).run({ n: 1 }, { ...CALL, signal: controller.signal }),
    ).rejects.toThrow('x');
  });
});
