import { describe, expect, it } from 'vitest';
import { isCut, lostBytes } from './lost-content';

const b = (text: string) => Buffer.from(text, 'utf8');
const VICTIM = Array.from({ length: 100 }, (_, i) => `line ${String(i).padStart(3, '0')}: important content that must not be lost\n`).join('');

describe('lostBytes', () => {
  it('is zero for appends, new content and unchanged files', () => {
    expect(lostBytes(b(''), b('new'))).toBe(0);
    expect(lostBytes(b(VICTIM), b(VICTIM))).toBe(0);
    expect(lostBytes(b(VICTIM), b(`${VICTIM}appended\n`))).toBe(0);
    expect(lostBytes(b(VICTIM), b(`inserted at the top\n${VICTIM}`))).toBe(0);
  });

  it('counts what an edit replaced, wherever it is, and nothing else', () => {
    const edited = VICTIM.replace('line 050: important', 'line 050: IMPORTANT');
    expect(lostBytes(b(VICTIM), b(edited))).toBeLessThanOrEqual('important'.length);
    expect(lostBytes(b(VICTIM), b(edited))).toBeGreaterThan(0);
    // A single long line (minified code) edited in one place loses only that place.
    const minified = 'x'.repeat(10_000);
    expect(lostBytes(b(minified), b(`${minified.slice(0, 5000)}y${minified.slice(5001)}`))).toBe(1);
  });

  it('counts an overwrite, an emptying, a cut and an encryption as the content they destroyed', () => {
    expect(lostBytes(b(VICTIM), b('pwned\n'))).toBeGreaterThan(VICTIM.length - 10);
    expect(lostBytes(b(VICTIM), b(''))).toBe(VICTIM.length);
    expect(lostBytes(b(VICTIM), b(VICTIM.slice(0, 1000)))).toBe(VICTIM.length - 1000);
    expect(lostBytes(b(VICTIM), b(VICTIM.slice(-1000)))).toBe(VICTIM.length - 1000);
    const xored = Buffer.from(b(VICTIM).map((byte) => byte ^ 0x5a));
    expect(lostBytes(b(VICTIM), xored)).toBe(VICTIM.length);
    expect(lostBytes(b(VICTIM), b(VICTIM.replace(/[^\n]/g, '')))).toBeGreaterThanOrEqual(VICTIM.length - 100);
  });

  it('does not count lines moved within the changed region', () => {
    const lines = VICTIM.split('\n').filter(Boolean);
    const sorted = `${[...lines].reverse().join('\n')}\n`;
    expect(lostBytes(b(VICTIM), b(sorted))).toBe(0);
  });
});

describe('isCut', () => {
  it('tells a piece of the old content from an edit', () => {
    expect(isCut(b(VICTIM), b(VICTIM.slice(0, 4200)))).toBe(true);
    expect(isCut(b(VICTIM), b(VICTIM.slice(-100)))).toBe(true);
    expect(isCut(b(VICTIM), b(VICTIM.slice(300, 900)))).toBe(true);
    expect(isCut(b(VICTIM), b(`${VICTIM.slice(0, 100)}new`))).toBe(false);
    expect(isCut(b(VICTIM), b(`${VICTIM}x`))).toBe(false);
  });
});
