import { mkdtemp, readdir, rm } from 'node:fs/promises';
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

function command(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`${line}\r\n`));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString('utf8'));
    });
    socket.once('error', reject);
  });
}

describe('startPrivateRedis', () => {
  it('runs redis-server on 127.0.0.1 with nothing persisted, and stops it', async () => {
    const redisServer = findOnPath('redis-server', process.env.PATH);
    expect(redisServer, 'redis-server must be installed for this test').not.toBeNull();
    const redis = await startPrivateRedis({ home, redisServer: redisServer!, inheritedEnv: { PATH: process.env.PATH ?? '' } });
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
});
