import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { Shutdown } from './shutdown';

const logger = createLogger({ level: 'silent' });

function setup(timeoutMs = 1000) {
  const exits: number[] = [];
  const shutdown = new Shutdown({ logger, timeoutMs, exit: (code) => void exits.push(code) });
  return { shutdown, exits };
}

describe('Shutdown', () => {
  it('runs phases in order whatever the registration order, then exits 0', async () => {
    const { shutdown, exits } = setup();
    const order: string[] = [];
    const step = (name: string) => async () => void order.push(name);
    shutdown.register('disconnect', 'postgres', step('postgres'));
    shutdown.register('disconnect', 'redis', step('redis'));
    shutdown.register('close', 'consumers', step('consumers'));
    shutdown.register('stop-intake', 'heartbeat', step('heartbeat'));
    shutdown.register('flush', 'logger', step('logger'));
    await shutdown.run('SIGTERM');
    expect(order).toEqual(['heartbeat', 'consumers', 'logger', 'postgres', 'redis']);
    expect(exits).toEqual([0]);
  });

  it('runs only once however often it is asked', async () => {
    const { shutdown, exits } = setup();
    let calls = 0;
    shutdown.register('close', 'x', async () => void calls++);
    await Promise.all([shutdown.run('SIGTERM'), shutdown.run('SIGINT')]);
    expect(calls).toBe(1);
    expect(exits).toEqual([0]);
  });

  it('keeps going after a failing step and exits 1', async () => {
    const { shutdown, exits } = setup();
    let disconnected = false;
    shutdown.register('close', 'consumers', async () => {
      throw new Error('stuck');
    });
    shutdown.register('disconnect', 'postgres', async () => {
      disconnected = true;
    });
    await shutdown.run('SIGTERM');
    expect(disconnected).toBe(true);
    expect(exits).toEqual([1]);
  });

  it('exits 1 at the hard timeout when a step hangs', async () => {
    const { shutdown, exits } = setup(100);
    shutdown.register('close', 'hang', () => new Promise(() => {}));
    void shutdown.run('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(exits).toEqual([1]);
  });
});
