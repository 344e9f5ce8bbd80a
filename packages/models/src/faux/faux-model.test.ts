import { drive, fold, type ModelRequest } from '@looplane/engine';
import { longScript, longScriptTools, sampleCatalogue, startFixture } from '@looplane/engine/testing';
import { describe, expect, it } from 'vitest';
import { createModelForEndpoint, modelLimitsOf, type EndpointSettings } from '../endpoint';
import { createFauxModel } from './faux-model';

const request = (turn: number): ModelRequest => ({
  requestId: 'req-1',
  purpose: 'turn',
  turn,
  maxOutputTokens: 100,
  messages: [{ role: 'user', content: 'go' }],
  tools: [],
});

const endpoint = (config: unknown): EndpointSettings => ({
  kind: 'faux',
  name: 'demo-faux',
  baseUrl: null,
  model: 'faux-1',
  inputMicrosPerMTok: 0,
  outputMicrosPerMTok: 0,
  contextWindow: 8000,
  maxOutputTokens: 1000,
  timeoutMs: 60_000,
  maxRetries: 3,
  config,
});

describe('faux model', () => {
  it('plays its script deterministically, with tool calls, delegation and deterministic usage', async () => {
    const model = createFauxModel({
      script: [{ say: 'Looking.', calls: [{ tool: 'read_file', args: { path: 'a' } }] }, { delegate: { to: 'tester', goal: 'test it' } }],
    });
    const first = await model.complete(request(0));
    expect(first).toEqual({
      ok: true,
      text: 'Looking.',
      toolCalls: [{ name: 'read_file', arguments: '{"path":"a"}' }],
      usage: { inputTokens: 5, outputTokens: 10 },
      finishReason: 'tool_calls',
    });
    expect(await model.complete(request(0))).toEqual(first);
    expect(await model.complete(request(1))).toMatchObject({ toolCalls: [{ name: 'delegate', arguments: '{"to":"tester","goal":"test it"}' }] });
    expect(await model.complete(request(2))).toMatchObject({ text: 'Done.', toolCalls: [], finishReason: 'stop' });
  });

  it('simulates think time and paced streaming, and can be aborted while thinking', async () => {
    const model = createFauxModel({ script: [{ finish: 'a sixteen char s' }], thinkMs: 60, chunkDelayMs: 20, chunkChars: 4 });
    const deltas: number[] = [];
    const started = performance.now();
    await model.complete(request(0), { onDelta: () => deltas.push(performance.now() - started) });
    expect(deltas).toHaveLength(4);
    expect(deltas[0]).toBeGreaterThanOrEqual(55);
    expect(deltas[3]! - deltas[0]!).toBeGreaterThanOrEqual(55);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(model.complete(request(0), { signal: controller.signal })).rejects.toThrow('stop');
  });

  it('is built from an endpoint row, whose bad config is reported precisely', () => {
    expect(() => createModelForEndpoint(endpoint({ thinkMs: -1 }), null)).toThrow('endpoint demo-faux has an invalid config at thinkMs');
    expect(() => createModelForEndpoint({ ...endpoint({}), kind: 'openai' }, 'k')).toThrow('endpoint demo-faux has no base URL');
    expect(() => createModelForEndpoint({ ...endpoint({}), kind: 'openai', baseUrl: 'http://x/v1' }, null)).toThrow('endpoint demo-faux has no API key');
    expect(modelLimitsOf(endpoint({}))).toEqual({ model: 'faux-1', contextWindow: 8000, maxOutputTokens: 1000, inputMicrosPerMTok: 0, outputMicrosPerMTok: 0 });
  });

  it('drives a 200-turn run that replays to an identical state from its events', async () => {
    const faux = endpoint({ script: longScript(200) });
    const f = await startFixture({
      model: createModelForEndpoint(faux, null),
      config: { tools: sampleCatalogue(), model: modelLimitsOf(faux) },
      tools: longScriptTools(),
    });
    const { state } = await drive({ ports: f.ports });
    expect(state).toMatchObject({ status: 'succeeded', turn: 200, result: 'Finished after 200 turns: all tests pass.' });
    expect(state.totals.compactions).toBeGreaterThan(0);
    expect(fold(await f.store.load())).toStrictEqual(state);
  });
});
