import type { ModelRequest } from '@looplane/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { LOOPBACK_ALLOWED, startChatServer, type ChatServer } from '../testing';
import { createOpenAIModel } from './openai-model';

/** A request whose catalogue holds MCP tools (`mcp:<server>:<tool>`), one already called. */
const request: ModelRequest = {
  requestId: 'req-1',
  purpose: 'turn',
  turn: 1,
  maxOutputTokens: 256,
  messages: [
    { role: 'user', content: 'List the workspace.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'mcp:files:list_directory', arguments: '{"path":"/workspace"}' }] },
    { role: 'tool', toolCallId: 'call-1', content: '[FILE] a.txt' },
  ],
  tools: [
    { name: 'mcp:files:list_directory', description: 'List a directory', parameters: { type: 'object', properties: {} } },
    { name: 'mcp:files:read.text', description: 'Read a file', parameters: { type: 'object', properties: {} } },
    { name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: {} } },
  ],
};

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('tool names on the wire', () => {
  it('sends MCP tool names in the form Chat Completions accepts and maps the answer back', async () => {
    for (const stream of [true, false]) {
      server = await startChatServer([
        { toolCalls: [{ name: 'mcp__files__read_text', arguments: '{"path":"/workspace/a.txt"}' }], usage: { prompt_tokens: 1, completion_tokens: 1 } },
      ]);
      const model = createOpenAIModel({
        baseURL: server.baseURL,
        apiKey: 'sk-test-secret-key-123',
        model: 'gpt-test',
        maxRetries: 0,
        stream,
        addresses: LOOPBACK_ALLOWED,
      });
      const result = await model.complete(request);
      expect(result).toMatchObject({ ok: true, toolCalls: [{ name: 'mcp:files:read.text', arguments: '{"path":"/workspace/a.txt"}' }] });
      const body = server.requests[0]!.body as {
        tools: Array<{ function: { name: string } }>;
        messages: Array<{ tool_calls?: Array<{ function: { name: string } }> }>;
      };
      expect(body.tools.map((t) => t.function.name)).toEqual(['mcp__files__list_directory', 'mcp__files__read_text', 'shell']);
      expect(body.messages[1]!.tool_calls![0]!.function.name).toBe('mcp__files__list_directory');
      for (const name of body.tools.map((t) => t.function.name)) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      await server.close();
      server = undefined;
    }
  });
});
