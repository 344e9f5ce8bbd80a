import { describe, expect, it } from 'vitest';
import { ISOLATION_LEVELS, isolationRank, meetsIsolation, strongerMinimum } from './isolation-levels';

describe('isolation levels', () => {
  it('orders none < bwrap < podman < gvisor < microvm, with dangerous-none as none', () => {
    expect(ISOLATION_LEVELS).toEqual(['none', 'bwrap', 'podman', 'gvisor', 'microvm']);
    expect(isolationRank('microvm')).toBeGreaterThan(isolationRank('gvisor'));
    expect(meetsIsolation('gvisor', 'microvm')).toBe(false);
    expect(isolationRank('dangerous-none')).toBe(0);
    expect(isolationRank('gvisor')).toBeGreaterThan(isolationRank('podman'));
    expect(isolationRank('docker')).toBe(-1);
  });

  it('a driver meets its own level and every weaker one, never a stronger one or an unknown name', () => {
    expect(meetsIsolation('gvisor', 'bwrap')).toBe(true);
    expect(meetsIsolation('gvisor', 'gvisor')).toBe(true);
    expect(meetsIsolation('bwrap', 'gvisor')).toBe(false);
    expect(meetsIsolation('dangerous-none', 'bwrap')).toBe(false);
    expect(meetsIsolation('docker', 'bwrap')).toBe(false);
  });

  it('the stronger of two minimums wins, and an absent one gives way', () => {
    expect(strongerMinimum('bwrap', 'gvisor')).toBe('gvisor');
    expect(strongerMinimum('gvisor', 'podman')).toBe('gvisor');
    expect(strongerMinimum(undefined, 'podman')).toBe('podman');
    expect(strongerMinimum<string>(undefined, undefined)).toBeUndefined();
  });
});
