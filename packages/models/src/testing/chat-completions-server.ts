import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A successful answer; streamed as SSE when the request asks for `stream: true`. */
export interface ChatReply {
  text?: string;
  toolCalls?: { id?: string; name: string; arguments: string }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  finishReason?: string;
  /** Milliseconds to wait before answering (timeouts). */
  delayMs?: number;
  /** Streaming only: send this many chunks, then drop the connection. */
  dropAfterChunks?: number;
  /** Streaming only: characters of text (default 5, as a real server sends a token or so) and of tool arguments (default 7) per chunk. */
  chunkChars?: number;
}

/** An HTTP error answer with an OpenAI-style error body. */
export interface ChatErrorReply {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export type ScriptedReply = ChatReply | ChatErrorReply;

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** Streaming only: the client closed the connection before the whole answer was sent. */
  closedEarly?: boolean;
}

export interface ChatServer {
  /** Base URL to give the SDK, ending in /v1. */
  baseURL: string;
  /** The port it listens on (127.0.0.1). */
  port: number;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (a refused address must not even connect). */
  readonly connections: number;
  close(): Promise<void>;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The chunks of a streamed reply, as a real server sends them: role, text pieces, tool-call fragments, finish, usage. */
function streamChunks(reply: ChatReply, model: string, includeUsage: boolean): object[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_767_225_600, model };
  const choice = (delta: object, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks: object[] = [choice({ role: 'assistant', content: '' })];
  for (const piece of pieces(reply.text ?? '', reply.chunkChars ?? 5)) chunks.push(choice({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    chunks.push(choice({ tool_calls: [{ index, id: call.id ?? `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of pieces(call.arguments, reply.chunkChars ?? 7)) chunks.push(choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(choice({}, reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop')));
  if (includeUsage && reply.usage)
    chunks.push({ ...base, choices: [], usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } });
  return chunks;
}

function completion(reply: ChatReply, model: string): object {
  const toolCalls = reply.toolCalls?.map((c, i) => ({ id: c.id ?? `call_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_767_225_600,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text ?? null, ...(toolCalls?.length ? { tool_calls: toolCalls } : {}) },
        finish_reason: reply.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop'),
      },
    ],
    ...(reply.usage ? { usage: { ...reply.usage, total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens } } : {}),
  };
}

/** Resolves once the response may be written again, or once the client is gone. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function answer(res: ServerResponse, reply: ScriptedReply, record: RecordedRequest): Promise<void> {
  const { body } = record;
  if ('status' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify({ error: { message: reply.message, type: 'test_error', code: null } }));
    return;
  }
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (res.destroyed) return;
  const model = String(body.model);
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion(reply, model)));
    return;
  }
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunks = streamChunks(reply, model, includeUsage);
  for (const [i, chunk] of chunks.entries()) {
    if (reply.dropAfterChunks !== undefined && i >= reply.dropAfterChunks) {
      res.destroy();
      return;
    }
    // As a server does: a full socket waits for the client to read, and a client gone ends the answer.
    if (!res.write(`data: ${JSON.stringify(chunk)}\n\n`)) await drainedOrClosed(res);
    else await new Promise((resolve) => setImmediate(resolve));
    if (res.destroyed) {
      record.closedEarly = true;
      return;
    }
  }
  res.end('data: [DONE]\n\n');
}

/**
 * A Chat Completions server for tests: answers POST /v1/chat/completions from a script (one reply
 * per request, in order; the last repeats) with real SSE or JSON, and records every request.
 */
export async function startChatServer(replies: ScriptedReply[]): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const record: RecordedRequest = { path: req.url ?? '', headers: req.headers, body };
      requests.push(record);
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
        return;
      }
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)] ?? { status: 500, message: 'no reply scripted' };
      void answer(res, reply, record);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
