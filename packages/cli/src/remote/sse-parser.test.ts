import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser';

describe('SseParser', () => {
  it('parses ids, multi-line data and comments', () => {
    const parser = new SseParser();
    expect(parser.push('retry: 2000\n\nid: 7\ndata: {"a":1}\n\n: keep-alive\n\nevent: x\ndata: one\ndata: two\n\n')).toEqual([
      { id: '7', data: '{"a":1}' },
      { comment: 'keep-alive' },
      { event: 'x', data: 'one\ntwo' },
    ]);
  });

  it('joins messages split across chunks at any point, with CRLF line ends', () => {
    const text = 'id: 1\r\ndata: hello\r\n\r\nid: 2\r\ndata: world\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser();
      expect([...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))], `cut at ${cut}`).toEqual([
        { id: '1', data: 'hello' },
        { id: '2', data: 'world' },
      ]);
    }
  });
});
