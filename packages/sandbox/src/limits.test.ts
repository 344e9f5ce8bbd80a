import { describe, expect, it } from 'vitest';
import { emptyReport, LIMIT_NAMES, resolveLimits, unenforced } from './limits';

describe('limits', () => {
  it('fills every default and keeps what is given', () => {
    const limits = resolveLimits({ wallTimeMs: 1000 });
    expect(limits.wallTimeMs).toBe(1000);
    expect(Object.keys(limits).sort()).toEqual([...LIMIT_NAMES].sort());
  });

  it('refuses nonsense', () => {
    expect(() => resolveLimits({ wallTimeMs: 5 })).toThrow();
    expect(() => resolveLimits({ memoryBytes: 1.5 })).toThrow();
    expect(() => resolveLimits({ cpus: 0 })).toThrow();
  });

  it('an empty report enforces nothing', () => {
    expect(unenforced(emptyReport())).toEqual(LIMIT_NAMES);
  });
});
