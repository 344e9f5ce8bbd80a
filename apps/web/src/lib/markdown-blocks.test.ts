import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown-blocks';

describe('parseMarkdown', () => {
  it('reads headings, paragraphs, lists, quotes, rules and fenced code', () => {
    const source = [
      '# Quote drafting',
      '',
      'Read the **catalogue** first,',
      'then draft.',
      '',
      '- one',
      '- two',
      '1. first',
      '2) second',
      '> careful',
      '---',
      '```sql',
      'SELECT 1;',
      '# not a heading',
      '```',
    ].join('\n');
    expect(parseMarkdown(source)).toEqual([
      { kind: 'heading', level: 1, content: [{ kind: 'text', text: 'Quote drafting' }] },
      {
        kind: 'paragraph',
        content: [
          { kind: 'text', text: 'Read the ' },
          { kind: 'strong', children: [{ kind: 'text', text: 'catalogue' }] },
          { kind: 'text', text: ' first, then draft.' },
        ],
      },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'first' }], [{ kind: 'text', text: 'second' }]] },
      { kind: 'quote', content: [{ kind: 'text', text: 'careful' }] },
      { kind: 'rule' },
      { kind: 'code', language: 'sql', text: 'SELECT 1;\n# not a heading' },
    ]);
  });

  it('runs an unclosed fence to the end and accepts Windows line ends', () => {
    expect(parseMarkdown('```\r\na\r\nb')).toEqual([{ kind: 'code', language: '', text: 'a\nb' }]);
    expect(parseMarkdown('')).toEqual([]);
  });
});

describe('parseInline', () => {
  it('reads code, emphasis and links', () => {
    expect(parseInline('use `load_skill` and *then* [docs](https://example.com/a)')).toEqual([
      { kind: 'text', text: 'use ' },
      { kind: 'code', text: 'load_skill' },
      { kind: 'text', text: ' and ' },
      { kind: 'em', children: [{ kind: 'text', text: 'then' }] },
      { kind: 'text', text: ' ' },
      { kind: 'link', href: 'https://example.com/a', children: [{ kind: 'text', text: 'docs' }] },
    ]);
  });

  it('keeps a link to anything but http(s) or mailto as its text', () => {
    expect(parseInline('[click](javascript:alert(1))')).toEqual([
      { kind: 'text', text: 'click' },
      { kind: 'text', text: ')' },
    ]);
    expect(parseInline('[x](data:text/html,hi)')).toEqual([{ kind: 'text', text: 'x' }]);
  });

  it('leaves what is not markup as text', () => {
    expect(parseInline('2 * 3 * 4 and <b>bold</b>')).toEqual([{ kind: 'text', text: '2 * 3 * 4 and <b>bold</b>' }]);
    expect(parseInline('**')).toEqual([{ kind: 'text', text: '**' }]);
  });
});
