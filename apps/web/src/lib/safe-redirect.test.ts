import { describe, expect, it } from 'vitest';
import { safeCallbackPath } from './safe-redirect';

describe('safeCallbackPath', () => {
  it('keeps same-origin paths', () => {
    expect(safeCallbackPath('/t/demo/settings/tokens')).toBe('/t/demo/settings/tokens');
    expect(safeCallbackPath(['/t/demo', '/other'])).toBe('/t/demo');
  });

  it('refuses anything that could leave the site', () => {
    for (const value of ['https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '', undefined]) {
      expect(safeCallbackPath(value)).toBe('/');
    }
  });
});
