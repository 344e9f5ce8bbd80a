import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPrivateRedis } from './private-redis';
import { groupAlive } from './proc';
import { findOnPath } from './redis-binary';

const home = await mkdtemp(join(tmpdir(), 'looplane-redis-'));

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const PASSWORD = 'private-redis-test-password-0123';

/** Sends `lines` (after AUTH with `password`, when given) on one connection; resolves with the answer to the last. */
function command(port: number, line: string, password: string | null = PASSWORD): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`${password ? `AUTH ${password}\r\n` : ''}${line}\r\n`));
    let answer = '';
    socket.on('data', (data) => {
      answer += data.toString('utf8');
      const replies = answer.split(/\r\n(?=[+\-:$*])/);
      if (password && replies.length < 2) return;
      socket.destroy();
      resolve(password ? answer.slice(answer.indexOf('\r\n') + 2) : answer);
    });
    socket.once('error', reject);
  });
}

describe('startPrivateRedis', () => {
  it('runs redis-server on 127.0.0.1 with nothing persisted, and stops it', async () => {
    const redisServer = findOnPath('redis-server', process.env.PATH);
    expect(redisServer, 'redis-server must be installed for this test').not.toBeNull();
    const redis = await startPrivateRedis({ home, redisServer: redisServer!, password: PASSWORD, inheritedEnv: { PATH: process.env.PATH ?? '' } });
    const port = Number(new URL(redis.url).port);
    try {
      expect(port).not.toBe(6379);
      expect(await command(port, 'SET looplane:test 1')).toBe('+OK\r\n');
      expect(await command(port, 'CONFIG GET save')).toContain('save\r\n$0\r\n');
      expect(await command(port, 'CONFIG GET appendonly')).toContain('no');
      expect(await command(port, 'CONFIG GET bind')).toContain('127.0.0.1');
    } finally {
      await redis.stop();
    }
    expect(groupAlive(redis.child.pid)).toBe(false);
    expect(await readdir(join(home, 'redis'))).toEqual([]);
  });

  it('requires its password: a client without it gets nothing, the URL it gives carries it, and no file or command line shows it', async () => {
    const redisServer = findOnPath('redis-server', process.env.PATH)!;
    const redis = await startPrivateRedis({ home, redisServer, password: PASSWORD, inheritedEnv: { PATH: process.env.PATH ?? '' } });
    const port = Number(new URL(redis.url).port);
    try {
      expect(await command(port, 'GET looplane:test', null)).toMatch(/^-NOAUTH/);
      // A wrong AUTH leaves the connection unauthenticated.
      expect(await command(port, 'PING', 'a-wrong-password-0000')).toMatch(/^-NOAUTH/);
      // What the web and the worker get: the password in the URL, as Redis clients read it.
      const url = new URL(redis.url);
      expect({ host: url.host, username: url.username, password: decodeURIComponent(url.password) }).toEqual({
        host: `127.0.0.1:${port}`,
        username: '',
        password: PASSWORD,
      });
      expect(await command(port, 'PING', decodeURIComponent(url.password))).toBe('+PONG\r\n');
      // The config file that carried it is gone once the server answered; argv never had it.
      expect(await readdir(join(home, 'redis'))).toEqual([]);
      expect((await readFile(`/proc/${redis.child.pid}/cmdline`, 'utf8')).includes(PASSWORD)).toBe(false);
    } finally {
      await redis.stop();
    }
  });

  it('refuses a password that could not be put in a URL as it is', async () => {
    await expect(startPrivateRedis({ home, redisServer: 'redis-server', password: 'short', inheritedEnv: {} })).rejects.toThrow('16+ URL-safe characters');
  });
});
