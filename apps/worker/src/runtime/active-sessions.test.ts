import { describe, expect, it } from 'vitest';
import { ActiveSessions } from './active-sessions';

describe('SessionHandle', () => {
  it('aborts the drive for a cancel and a lost lease; stops it at a boundary for a message or a shutdown', () => {
    const sessions = new ActiveSessions();
    const handle = sessions.open('s1', 'r1');
    for (const [reason, aborted, stopped] of [
      ['cancel', true, false],
      ['lease-lost', true, false],
      ['inbox', false, true],
      ['shutdown', false, true],
    ] as const) {
      const { signal, stopSignal } = handle.beginDrive();
      handle.interrupt(reason);
      expect([reason, signal.aborted, stopSignal.aborted]).toEqual([reason, aborted, stopped]);
      handle.take(reason);
      handle.endDrive();
    }
  });

  it('aborts for a message when the run interrupts, and applies a pending interruption to the next drive', () => {
    const handle = new ActiveSessions().open('s1', 'r1');
    handle.busyPolicy = 'interrupt';
    handle.interrupt('inbox');
    const { signal } = handle.beginDrive();
    expect(signal.aborted).toBe(true);
    expect(handle.take('inbox')).toBe(true);
    expect(handle.take('inbox')).toBe(false);
  });

  it('shuts down every session, softly then hard, including ones opened afterwards', () => {
    const sessions = new ActiveSessions();
    const first = sessions.open('s1', 'r1');
    const drive = first.beginDrive();
    sessions.shutdownAll(false);
    expect([drive.stopSignal.aborted, drive.signal.aborted]).toEqual([true, false]);
    sessions.shutdownAll(true);
    expect(drive.signal.aborted).toBe(true);
    const late = sessions.open('s2', 'r2');
    expect(late.has('shutdown')).toBe(true);
    expect(sessions.forRun('r1')).toEqual([first]);
    sessions.close(first);
    expect(sessions.get('s1')).toBeUndefined();
  });
});
