import type { ModelRequest } from '@looplane/engine';
import { modelEndpointPolicy, type Resolver } from '@looplane/shared/net';
import { afterEach, describe, expect, it } from 'vitest';
import { LOOPBACK_ALLOWED, startChatServer, type ChatServer, type ScriptedReply } from '../testing';
import { createOpenAIModel, type OpenAIModelOptions } from './openai-model';

const request: ModelRequest = {
  requestId: 'req-2',
  purpose: 'turn',
  turn: 1,
  maxOutputTokens: 256,
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'What is in a.txt?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call-7', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
    { role: 'tool', toolCallId: 'call-7', content: 'hello' },
  ],
  tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
};

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(replies: ScriptedReply[], options: Partial<OpenAIModelOptions> = {}) {
  server = await startChatServer(replies);
  const model = createOpenAIModel({
    baseURL: server.baseURL,
    apiKey: 'sk-test-secret-key-123',
    model: 'gpt-test',
    maxRetries: 2,
    addresses: LOOPBACK_ALLOWED,
    ...options,
  });
  return { model, server };
}

const usage = { prompt_tokens: 42, completion_tokens: 7 };

describe('OpenAI-compatible adapter', () => {
  it('streams text over SSE, in order, with usage from the final chunk, and sends a proper request', async () => {
    const { model, server } = await serve([{ text: 'a.txt says hello, world.', usage }]);
    const deltas: string[] = [];
    const result = await model.complete(request, { onDelta: (t) => deltas.push(t) });
    expect(result).toEqual({ ok: true, text: 'a.txt says hello, world.', toolCalls: [], usage: { inputTokens: 42, outputTokens: 7 }, finishReason: 'stop' });
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('a.txt says hello, world.');
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-test-secret-key-123');
    expect(sent.body).toMatchObject({ model: 'gpt-test', stream: true, stream_options: { include_usage: true }, max_tokens: 256 });
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is in a.txt?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call-7', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }] },
      { role: 'tool', tool_call_id: 'call-7', content: 'hello' },
    ]);
    expect(sent.body.tools).toEqual([{ type: 'function', function: request.tools[0] }]);
  });

  it('assembles streamed tool calls from fragments, several in one answer', async () => {
    const { model } = await serve([
      {
        text: 'Reading both.',
        toolCalls: [
          { name: 'read_file', arguments: '{"path":"src/very/long/path/a.ts"}' },
          { name: 'read_file', arguments: '{"path":"b.ts","offset":10}' },
        ],
        usage,
      },
    ]);
    const result = await model.complete(request);
    expect(result).toMatchObject({
      ok: true,
      text: 'Reading both.',
      finishReason: 'tool_calls',
      toolCalls: [
        { name: 'read_file', arguments: '{"path":"src/very/long/path/a.ts"}' },
        { name: 'read_file', arguments: '{"path":"b.ts","offset":10}' },
      ],
    });
  });

  it('reads plain JSON answers with tool calls when streaming is off', async () => {
    const { model, server } = await serve([{ toolCalls: [{ name: 'read_file', arguments: '{"path":"c"}' }], usage }], {
      stream: false,
      maxTokensParam: 'max_completion_tokens',
      temperature: 0,
    });
    const deltas: string[] = [];
    const result = await model.complete(request, { onDelta: (t) => deltas.push(t) });
    expect(result).toEqual({
      ok: true,
      text: '',
      toolCalls: [{ name: 'read_file', arguments: '{"path":"c"}' }],
      usage: { inputTokens: 42, outputTokens: 7 },
      finishReason: 'tool_calls',
    });
    expect(deltas).toEqual([]);
    expect(server.requests[0]!.body).toMatchObject({ stream: false, max_completion_tokens: 256, temperature: 0 });
    expect(server.requests[0]!.body).not.toHaveProperty('max_tokens');
  });

  it('retries a 429 with backoff, then succeeds', async () => {
    const { model, server } = await serve([
      { status: 429, message: 'slow down', headers: { 'retry-after-ms': '150' } },
      { text: 'ok', usage },
    ]);
    const started = performance.now();
    const result = await model.complete(request);
    expect(result).toMatchObject({ ok: true, text: 'ok' });
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('surfaces a persistent 500 as a retryable server error, after its retries', async () => {
    const { model, server } = await serve([{ status: 500, message: 'upstream model crashed', headers: { 'retry-after-ms': '5' } }]);
    const result = await model.complete(request);
    expect(result).toEqual({
      ok: false,
      error: { code: 'server_error', status: 500, message: 'provider returned 500: upstream model crashed (after 2 retries)', retryable: true },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('surfaces a 400 at once with the server message, and never leaks the key', async () => {
    const { model, server } = await serve([{ status: 400, message: "model 'gpt-test' does not support tools" }]);
    expect(await model.complete(request)).toEqual({
      ok: false,
      error: { code: 'bad_request', status: 400, message: "provider returned 400: model 'gpt-test' does not support tools", retryable: false },
    });
    expect(server.requests).toHaveLength(1);
    await server.close();
    const { model: denied } = await serve([{ status: 401, message: 'Incorrect API key provided: sk-test-secret-key-123.' }]);
    const result = await denied.complete(request);
    expect(result).toMatchObject({ ok: false, error: { code: 'auth', status: 401 } });
    expect(JSON.stringify(result)).not.toContain('secret-key');
  });

  it('reports a timeout and an unreachable server clearly', async () => {
    const { model, server } = await serve([{ text: 'late', delayMs: 1000 }], { timeoutMs: 100, maxRetries: 0 });
    expect(await model.complete(request)).toEqual({
      ok: false,
      error: { code: 'timeout', message: `${server.baseURL} did not answer within 100 ms`, retryable: true },
    });
    const unreachable = createOpenAIModel({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', maxRetries: 0, addresses: LOOPBACK_ALLOWED });
    expect(await unreachable.complete(request)).toMatchObject({ ok: false, error: { code: 'connection', retryable: true } });
  });

  it('refuses a loopback base URL at once, without retries, unless LOOPLANE_ENDPOINTS_ALLOW lists it', async () => {
    const { server } = await serve([{ text: 'never', usage }]);
    const model = createOpenAIModel({ baseURL: server.baseURL, apiKey: 'sk-test-secret-key-123', model: 'gpt-test', maxRetries: 3 });
    expect(await model.complete(request)).toEqual({
      ok: false,
      error: {
        code: 'bad_request',
        message: `127.0.0.1 is a loopback address: model endpoints may not connect there unless the server's LOOPLANE_ENDPOINTS_ALLOW lists it (such as 127.0.0.1:${new URL(server.baseURL).port})`,
        retryable: false,
      },
    });
    expect(server.requests).toHaveLength(0);
  });

  it('checks the address again at connect time: a name that rebinds to loopback after the check is refused', async () => {
    const { server } = await serve([{ text: 'never', usage }]);
    let lookups = 0;
    // A public address for the first answer, loopback for every later one.
    const resolve: Resolver = async () => (lookups++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const port = new URL(server.baseURL).port;
    const model = createOpenAIModel({
      baseURL: `http://rebind.looplane.test:${port}/v1`,
      apiKey: 'sk-test-secret-key-123',
      model: 'm',
      maxRetries: 0,
      addresses: modelEndpointPolicy([], resolve),
    });
    expect(await model.complete(request)).toEqual({
      ok: false,
      error: {
        code: 'bad_request',
        message: expect.stringMatching(/^rebind\.looplane\.test resolves to 127\.0\.0\.1, which is a loopback address/),
        retryable: false,
      },
    });
    expect(lookups).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it('reports a stream that breaks off', async () => {
    const { model, server } = await serve([{ text: 'this answer will be cut short', dropAfterChunks: 3 }]);
    const result = await model.complete(request);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'connection',
        message: `the answer stream from ${server.baseURL} broke off: the connection closed before the answer ended`,
        retryable: true,
      },
    });
  });

  it('rejects when aborted mid-stream (the engine records nothing for an aborted call)', async () => {
    const { model } = await serve([{ text: 'a fairly long answer that streams in many small pieces', usage }]);
    const controller = new AbortController();
    const call = model.complete(request, { signal: controller.signal, onDelta: () => controller.abort() });
    await expect(call).rejects.toThrow();
  });

  it('stops reading an answer that passes the byte cap: the request is closed, the text kept up to the cap, marked truncated', async () => {
    const { model, server } = await serve([{ text: 'é'.repeat(4 * 1024 * 1024), chunkChars: 16 * 1024, usage }], { maxOutputBytes: 100_001 });
    const deltas: string[] = [];
    const result = await model.complete(request, { onDelta: (t) => deltas.push(t) });
    // 'é' is 2 bytes: 50,000 of them fit in 100,001 bytes, never half of one.
    expect(result).toEqual({
      ok: true,
      text: 'é'.repeat(50_000),
      toolCalls: [],
      usage: null,
      finishReason: 'length',
      truncated: "the model's answer passed 100001 bytes, the most one answer may hold; the rest was not read",
    });
    expect(deltas.join('')).toBe(result.ok ? result.text : '');
    await expect.poll(() => server.requests[0]!.closedEarly).toBe(true);
  });

  it('drops tool calls that pass the byte cap, and holds a plain JSON answer to it', async () => {
    const flood = { name: 'write', arguments: JSON.stringify({ text: 'x'.repeat(300_000) }) };
    const streamed = await serve([{ text: 'writing', toolCalls: [flood], chunkChars: 64 }], { maxOutputBytes: 100_000 });
    expect(await streamed.model.complete(request)).toMatchObject({
      ok: true,
      text: 'writing',
      toolCalls: [],
      finishReason: 'length',
      truncated: expect.any(String),
    });
    await server?.close();
    const plain = await serve([{ text: 'y'.repeat(300_000), usage }], { maxOutputBytes: 100_000, stream: false });
    expect(await plain.model.complete(request)).toMatchObject({ ok: true, text: 'y'.repeat(100_000), finishReason: 'length', usage: { outputTokens: 7 } });
  });

  it('returns no usage when the server does not send it (the engine then estimates)', async () => {
    const { model, server } = await serve([{ text: 'hi', usage }], { streamUsage: false });
    expect(await model.complete(request)).toMatchObject({ ok: true, usage: null });
    expect(server.requests[0]!.body).not.toHaveProperty('stream_options');
  });
});
