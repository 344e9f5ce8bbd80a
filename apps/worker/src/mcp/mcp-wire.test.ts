import { describe, expect, it } from 'vitest';
import { parseMcpToolName } from './mcp-call';
import { parseToolCall, parseToolList, resultText, stdinFor } from './mcp-wire';

describe('MCP over one stdio exchange', () => {
  it('writes initialize, initialized and the request as JSON lines', () => {
    const lines = stdinFor({ method: 'tools/call', name: 'read_text_file', arguments: { path: '/workspace/a' } })
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.method)).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    expect(lines[2]).toMatchObject({ id: 2, params: { name: 'read_text_file', arguments: { path: '/workspace/a' } } });
  });

  it('finds the answer among log lines and other messages', () => {
    const stdout = [
      'starting up',
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } } }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        result: {
          content: [
            { type: 'text', text: 'hello' },
            { type: 'image', data: 'aGk=', mimeType: 'image/png' },
          ],
        },
      }),
    ].join('\n');
    const call = parseToolCall(stdout);
    expect(call.ok && resultText(call.result)).toBe('hello\n[image content]');
    expect(parseToolCall(JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'no such tool' } }))).toEqual({
      ok: false,
      error: 'the MCP server answered with an error: no such tool',
    });
    expect(parseToolCall('')).toEqual({ ok: false, error: 'the MCP server exited without answering' });
    const list = parseToolList(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'read', inputSchema: { type: 'object' } }] } }));
    expect(list.ok && list.tools.map((t) => t.name)).toEqual(['read']);
    expect(parseToolList(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: 'nope' } })).ok).toBe(false);
  });

  it('names tools mcp:<server>:<tool> and nothing else', () => {
    expect(parseMcpToolName('mcp:files:read_text_file')).toEqual({ server: 'files', tool: 'read_text_file' });
    expect(parseMcpToolName('mcp:Files:read')).toBeNull();
    expect(parseMcpToolName('shell')).toBeNull();
    expect(parseMcpToolName('mcp:files:a:b')).toBeNull();
  });
});
