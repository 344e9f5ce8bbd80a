import { describe, expect, it } from 'vitest';
import { createLogger, scrubCredentials } from './logger';

function capture() {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  return { logger, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), raw: () => lines.join('') };
}

describe('scrubCredentials', () => {
  it.each([
    ['postgresql://looplane:s3cret@db:5432/x', 'postgresql://[redacted]@db:5432/x'],
    ['redis://:pw@127.0.0.1:6379', 'redis://[redacted]@127.0.0.1:6379'],
    ['see https://user@example.com/a and redis://h:1', 'see https://[redacted]@example.com/a and redis://h:1'],
    ['no url here', 'no url here'],
  ])('%s', (input, output) => {
    expect(scrubCredentials(input)).toBe(output);
  });
});

describe('createLogger', () => {
  it('redacts secret keys at the top level and one level down', () => {
    const { logger, entries, raw } = capture();
    logger.info({ password: 'p1', token: 't1', apiKey: 'k1', endpoint: { apiKey: 'k2', name: 'openai' }, DATABASE_URL: 'postgres://a:b@c/d' }, 'hello');
    expect(entries()[0]).toMatchObject({
      password: '[redacted]',
      token: '[redacted]',
      apiKey: '[redacted]',
      endpoint: { apiKey: '[redacted]', name: 'openai' },
      DATABASE_URL: '[redacted]',
      msg: 'hello',
    });
    for (const secret of ['p1', 't1', 'k1', 'k2', 'a:b']) expect(raw()).not.toContain(secret);
  });

  it('strips credentials from URLs in messages, values and errors', () => {
    const { logger, entries, raw } = capture();
    logger.warn({ target: 'redis://:hunter2@cache:6379' }, 'connecting to postgres://app:hunter3@db/x');
    logger.error({ err: new Error('connect postgres://app:hunter4@db/x failed') }, 'boom');
    logger.error(new Error('lost redis://:hunter5@cache:6379'));
    for (const secret of ['hunter2', 'hunter3', 'hunter4', 'hunter5']) expect(raw()).not.toContain(secret);
    const [first, second, third] = entries();
    expect(first).toMatchObject({ target: 'redis://[redacted]@cache:6379', msg: 'connecting to postgres://[redacted]@db/x' });
    expect(second!.err).toMatchObject({ type: 'Error', message: 'connect postgres://[redacted]@db/x failed' });
    expect(third).toMatchObject({ msg: 'lost redis://[redacted]@cache:6379', err: { type: 'Error' } });
  });
});
