import { describe, expect, it } from 'vitest';
import { OutputBuffer, truncationMarker } from './output-buffer';

describe('OutputBuffer', () => {
  it('keeps both streams under one budget and reports the overflow once', () => {
    let overflows = 0;
    const buffer = new OutputBuffer(10, () => overflows++);
    buffer.push('stdout', Buffer.from('12345'));
    buffer.push('stderr', Buffer.from('abc'));
    buffer.push('stdout', Buffer.from('6789'));
    buffer.push('stdout', Buffer.from('more'));
    expect(buffer.text('stdout')).toBe('1234567');
    expect(buffer.text('stderr')).toBe('abc');
    expect(buffer.truncated).toBe(true);
    expect(overflows).toBe(1);
  });

  it('exactly at the budget is not truncated', () => {
    const buffer = new OutputBuffer(4, () => undefined);
    buffer.push('stdout', Buffer.from('abcd'));
    expect(buffer.truncated).toBe(false);
  });

  it('marks truncation in words', () => {
    expect(truncationMarker(1024)).toBe('\n[output truncated: the 1024-byte output limit was reached and the process was killed]');
  });
});
