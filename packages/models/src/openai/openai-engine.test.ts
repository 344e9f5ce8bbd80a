import { drive, fold } from '@looplane/engine';
import { payloadsOf, startFixture } from '@looplane/engine/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { LOOPBACK_ALLOWED, startChatServer, type ChatServer, type ScriptedReply } from '../testing';
import { createOpenAIModel } from './openai-model';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools = [{ name: 'read_file', description: 'Read a file', idempotent: true, parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

async function run(replies: ScriptedReply[], stream: boolean) {
  server = await startChatServer(replies);
  const model = createOpenAIModel({ baseURL: server.baseURL, apiKey: 'sk-engine-test', model: 'gpt-test', stream, maxRetries: 1, addresses: LOOPBACK_ALLOWED });
  const f = await startFixture({
    model,
    goal: 'What does a.txt say?',
    config: { tools, toolLoading: 'eager', model: { model: 'gpt-test', inputMicrosPerMTok: 1_000_000, outputMicrosPerMTok: 2_000_000 } },
    tools: { read_file: (args) => `contents of ${args.path}: hello` },
  });
  const { state } = await drive({ ports: f.ports, deltaChunkChars: 8 });
  return { f, state, server };
}

describe('the engine over the OpenAI-compatible adapter', () => {
  for (const stream of [true, false]) {
    it(`runs a tool-calling conversation end to end (${stream ? 'streamed' : 'plain JSON'})`, async () => {
      const { f, state, server } = await run(
        [
          {
            text: 'Let me read it.',
            toolCalls: [{ id: 'call_abc', name: 'read_file', arguments: '{"path":"a.txt"}' }],
            usage: { prompt_tokens: 80, completion_tokens: 12 },
          },
          { text: 'a.txt says hello.', usage: { prompt_tokens: 120, completion_tokens: 6 } },
        ],
        stream,
      );
      expect(state).toMatchObject({ status: 'succeeded', result: 'a.txt says hello.' });
      const [requested] = payloadsOf(f.store.events, 'tool.requested');
      expect(requested).toMatchObject({ name: 'read_file', args: { path: 'a.txt' } });
      expect(payloadsOf(f.store.events, 'model.responded').map((r) => [r.usage, r.costMicros])).toEqual([
        [{ inputTokens: 80, outputTokens: 12, estimated: false }, 80 + 24], // $1 and $2 per million tokens
        [{ inputTokens: 120, outputTokens: 6, estimated: false }, 120 + 12],
      ]);
      expect(
        payloadsOf(f.store.events, 'model.delta')
          .map((d) => d.text)
          .join(''),
      ).toBe('Let me read it.a.txt says hello.');
      // The second request carries the engine's call id on both the assistant call and the tool result.
      const messages = server.requests[1]!.body.messages as { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[];
      expect(messages.at(-2)?.tool_calls?.[0]?.id).toBe(requested!.callId);
      expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: requested!.callId, content: 'contents of a.txt: hello' });
      expect(fold(await f.store.load())).toStrictEqual(state);
    });
  }

  it('records a provider error as a model.failed event with a clear message, and fails the run', async () => {
    const { f, state } = await run([{ status: 400, message: "This model's maximum context length is 8192 tokens." }], true);
    expect(payloadsOf(f.store.events, 'model.failed')).toEqual([
      {
        requestId: 'req-2',
        error: { code: 'bad_request', status: 400, message: "provider returned 400: This model's maximum context length is 8192 tokens.", retryable: false },
      },
    ]);
    expect(state).toMatchObject({ status: 'failed', error: "model call failed: provider returned 400: This model's maximum context length is 8192 tokens." });
    expect(payloadsOf(f.store.events, 'budget.charged')).toMatchObject([{ costMicros: 0 }]);
  });

  it('records a persistent 500 as a model.failed event naming the retries spent', async () => {
    const { f, state, server } = await run([{ status: 500, message: 'the model server is overloaded', headers: { 'retry-after-ms': '5' } }], true);
    expect(server.requests).toHaveLength(2);
    expect(payloadsOf(f.store.events, 'model.failed')[0]?.error).toEqual({
      code: 'server_error',
      status: 500,
      message: 'provider returned 500: the model server is overloaded (after 1 retry)',
      retryable: true,
    });
    expect(state.error).toBe('model call failed: provider returned 500: the model server is overloaded (after 1 retry)');
  });

  it('rides out a 429 inside the adapter: the log shows one successful call', async () => {
    const { f, state, server } = await run([{ status: 429, message: 'rate limited', headers: { 'retry-after-ms': '20' } }, { text: 'fine' }], true);
    expect(state.result).toBe('fine');
    expect(server.requests).toHaveLength(2);
    expect(payloadsOf(f.store.events, 'model.failed')).toEqual([]);
    expect(payloadsOf(f.store.events, 'model.responded')[0]?.usage.estimated).toBe(true);
  });
});
