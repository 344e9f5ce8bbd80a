import { describe, expect, it } from 'vitest';
import { parseFilesUrl, writeFilesUrl } from './use-files-url';

describe('the Files tab in the URL', () => {
  it('reads the tab, the event and the path', () => {
    expect(parseFilesUrl('?tab=files&at=12&path=notes%2Fplan.md')).toEqual({ tab: 'files', at: 12, path: 'notes/plan.md' });
    expect(parseFilesUrl('')).toEqual({ tab: 'timeline', at: null, path: '' });
  });

  it('takes anything malformed as the default', () => {
    expect(parseFilesUrl('?tab=other&at=0')).toEqual({ tab: 'timeline', at: null, path: '' });
    expect(parseFilesUrl('?at=1.5').at).toBeNull();
    expect(parseFilesUrl('?at=abc').at).toBeNull();
    expect(parseFilesUrl('?at=').at).toBeNull();
  });

  it('writes the state in, keeps other parameters, and leaves defaults out', () => {
    expect(writeFilesUrl('?session=ses_1', { tab: 'files', at: 7, path: 'notes/plan.md' })).toBe('?session=ses_1&tab=files&at=7&path=notes%2Fplan.md');
    expect(writeFilesUrl('?session=ses_1&tab=files&at=7&path=x', { tab: 'timeline', at: null, path: '' })).toBe('?session=ses_1');
    expect(writeFilesUrl('', { tab: 'timeline', at: null, path: '' })).toBe('');
  });

  it('round-trips', () => {
    const state = { tab: 'files', at: 3, path: 'a b/c&d.md' } as const;
    expect(parseFilesUrl(writeFilesUrl('', state))).toEqual(state);
  });
});
