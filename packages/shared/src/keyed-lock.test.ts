import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedLock', () => {
  it('serialises one key in call order, lets other keys run, and survives a failure', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const a1 = lock.run('a', async () => {
      await tick(30);
      order.push('a1');
    });
    const failing = lock.run('a', async () => {
      order.push('a2');
      throw new Error('boom');
    });
    const a3 = lock.run('a', async () => order.push('a3'));
    const b = lock.run('b', async () => order.push('b'));
    expect(lock.held('a')).toBe(true);
    await Promise.all([a1, failing.catch(() => undefined), a3, b]);
    expect(order).toEqual(['b', 'a1', 'a2', 'a3']);
    await expect(failing).rejects.toThrow('boom');
    expect(lock.held('a')).toBe(false);
  });
});
