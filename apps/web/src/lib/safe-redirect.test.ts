import { describe, expect, it } from 'vitest';
import { safeCallbackPath, sameOriginPath } from './safe-redirect';

/**
 * Targets that lead off the site once a browser reads them (it drops tabs and newlines, reads `\`
 * as `/` and `//host` as another site), or that a Location header cannot carry.
 */
const HOSTILE = [
  'https://evil.example',
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example/phish',
  '/\n/evil.example',
  '/\r/evil.example',
  '/\r\nSet-Cookie: a=b',
  '\t//evil.example',
  '/\u0000/evil.example',
  '/\u001f/evil.example',
  '/\u007f/evil.example',
  '/\u0085/evil.example',
  '/\u009b/evil.example',
  '/.//evil.example',
  '/./\t/evil.example',
  '/a/..//evil.example',
  '/%2e//evil.example',
  'javascript:alert(1)',
  'data:text/html,hi',
  'evil.example',
  '',
  undefined,
];

/** A test name that shows every character (JSON escapes C0 controls but not DEL or C1). */
const shown = (value: string | undefined) =>
  value === undefined ? 'undefined' : JSON.stringify(value).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('safeCallbackPath', () => {
  it('keeps same-origin paths, with their query and fragment', () => {
    expect(safeCallbackPath('/t/demo/settings/tokens')).toBe('/t/demo/settings/tokens');
    expect(safeCallbackPath('/t/demo/runs?status=running#top')).toBe('/t/demo/runs?status=running#top');
    expect(safeCallbackPath(['/t/demo', '/other'])).toBe('/t/demo');
    expect(safeCallbackPath('/invite/abc%2Fdef')).toBe('/invite/abc%2Fdef');
  });

  it('gives back what a browser will read: the parsed path, normalised and encoded', () => {
    expect(safeCallbackPath('/t/demo/../other')).toBe('/t/other');
    expect(safeCallbackPath('/t/demo runs')).toBe('/t/demo%20runs');
  });

  it.each(HOSTILE.map((value) => [shown(value), value]))('refuses %s: it becomes /', (_name, value) => {
    expect(safeCallbackPath(value)).toBe('/');
  });

  it('refuses a hostile first value of a repeated parameter', () => {
    expect(safeCallbackPath(['/\t/evil.example', '/t/demo'])).toBe('/');
  });
});

describe('sameOriginPath', () => {
  const origin = 'https://looplane.example.com';

  it('keeps relative and absolute targets on the origin, as paths', () => {
    expect(sameOriginPath('/t/demo', origin)).toBe('/t/demo');
    expect(sameOriginPath('https://looplane.example.com/t/demo?x=1', origin)).toBe('/t/demo?x=1');
  });

  it.each(
    [
      ...HOSTILE.filter((value) => value !== undefined && value !== '' && value !== 'evil.example'),
      'https://looplane.example.com.evil.example/',
      'http://looplane.example.com/t/demo',
      'https://looplane.example.com:8443/',
      'https://looplane.example.com/\t/evil.example',
      'https://looplane.example.com//evil.example',
    ].map((value) => [shown(value), value!]),
  )('refuses %s', (_name, value) => {
    expect(sameOriginPath(value, origin)).toBeNull();
  });

  it('refuses everything when the origin itself does not parse', () => {
    expect(sameOriginPath('/t/demo', 'not a url')).toBeNull();
  });
});
