import { describe, expect, it } from 'vitest';
import { Printer } from '../printer';
import { spawnChild } from './children';
import { Lifecycle } from './lifecycle';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

function setup() {
  let err = '';
  const printer = new Printer({ write: () => true }, { write: (t: string) => (err += t) });
  return { lifecycle: new Lifecycle(printer), errors: () => err };
}

describe('Lifecycle', () => {
  it('stops in reverse order of registration and keeps going after a failing step', async () => {
    const { lifecycle, errors } = setup();
    const order: string[] = [];
    lifecycle.add('postgres', async () => void order.push('postgres'));
    lifecycle.add('redis', async () => {
      order.push('redis');
      throw new Error('already gone');
    });
    lifecycle.add('web', async () => void order.push('web'));
    await lifecycle.stopAll();
    expect(order).toEqual(['web', 'redis', 'postgres']);
    expect(errors()).toBe('warning: could not stop redis: already gone\n');
  });

  it('turns an unexpected child exit into a failure naming the child and its last output', async () => {
    const { lifecycle } = setup();
    const child = await spawnChild({ name: 'worker', command: 'sh', args: ['-c', 'echo boom; exit 7'], cwd: '/', env });
    lifecycle.manage(child);
    const reason = await lifecycle.stopped();
    expect(reason).toEqual({ kind: 'failure', message: 'worker exited with code 7 unexpectedly; its last output:\nboom' });
    await lifecycle.stopAll();
  });

  it('does not treat a requested stop as a failure', async () => {
    const { lifecycle } = setup();
    const child = await spawnChild({ name: 'web', command: 'sleep', args: ['30'], cwd: '/', env });
    lifecycle.manage(child);
    await lifecycle.stopAll();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lifecycle.signal.aborted).toBe(false);
  });
});
