import { describe, expect, it } from 'vitest';
import { nextThemePreference } from './theme';

describe('nextThemePreference', () => {
  it('first switches away from what the OS shows, then the other theme, then back to the OS', () => {
    expect(nextThemePreference('system', false)).toBe('dark');
    expect(nextThemePreference('dark', false)).toBe('light');
    expect(nextThemePreference('light', false)).toBe('system');

    expect(nextThemePreference('system', true)).toBe('light');
    expect(nextThemePreference('light', true)).toBe('dark');
    expect(nextThemePreference('dark', true)).toBe('system');
  });
});
