import { describe, expect, it } from 'vitest';
import { decodeEvent } from '../events/event-codec';
import type { EngineEvent } from '../events/event-types';
import { storedPayload } from '../events/stored-payload';
import { drive } from '../loop/drive';
import type { ModelPort, ModelResult } from '../ports/model-port';
import { fold } from '../state/fold';
import { payloadsOf, startFixture } from '../testing';
import { capModelResult, cutToBytes, DELTA_LOG_MAX_CHARS, MODEL_OUTPUT_MAX_BYTES, outputCapReason } from './output-cap';

const MiB = 1024 * 1024;
const answer = (text: string, toolCalls: { name: string; arguments: string }[] = []): ModelResult => ({
  ok: true,
  text,
  toolCalls,
  usage: null,
  finishReason: toolCalls.length ? 'tool_calls' : 'stop',
});

/** Streams `text` in `chunk`-character pieces (yielding between them) and answers it whole, as a server that ignores max_tokens. */
function floodingModel(text: string, chunk: number, onPiece: (index: number) => void = () => {}): ModelPort {
  return {
    async complete(_request, options = {}) {
      for (let i = 0; i * chunk < text.length; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        options.signal?.throwIfAborted();
        options.onDelta?.(text.slice(i * chunk, (i + 1) * chunk));
        onPiece(i);
      }
      return answer(text);
    },
  };
}

describe('cutToBytes', () => {
  it('keeps the longest prefix that fits in UTF-8, never splitting a character or a surrogate pair', () => {
    expect(cutToBytes('abcdef', 4)).toBe('abcd');
    expect(cutToBytes('abc', 4)).toBe('abc');
    expect(cutToBytes('aé€🙂', 3)).toBe('aé');
    expect(cutToBytes('aé€🙂', 6)).toBe('aé€');
    expect(cutToBytes('aé€🙂', 9)).toBe('aé€'); // the pair needs 4 bytes: not half of it
    expect(cutToBytes('aé€🙂', 10)).toBe('aé€🙂');
  });
});

describe('capModelResult', () => {
  it('passes an answer that fits, failures and an answer an adapter already cut', () => {
    const fits = answer('x'.repeat(100), [{ name: 'echo', arguments: '{}' }]);
    expect(capModelResult(fits, 200)).toBe(fits);
    const failed: ModelResult = { ok: false, error: { code: 'timeout', message: 'slow', retryable: true } };
    expect(capModelResult(failed, 1)).toBe(failed);
    const cut = { ...answer('x'.repeat(300)), truncated: 'cut by the adapter' };
    expect(capModelResult(cut, 200)).toBe(cut);
  });

  it('cuts an answer over the cap (tool calls count) to its text, marked, finishReason length', () => {
    expect(capModelResult(answer('x'.repeat(300)), 200)).toEqual({ ...answer('x'.repeat(200)), finishReason: 'length', truncated: outputCapReason(200) });
    const withCall = capModelResult(answer('say', [{ name: 'write', arguments: JSON.stringify({ text: 'y'.repeat(300) }) }]), 200);
    expect(withCall).toMatchObject({ ok: true, text: 'say', toolCalls: [], finishReason: 'length', truncated: outputCapReason(200) });
  });
});

describe('a model that floods its answer', () => {
  it('is recorded once, cut at the cap with a note: deltas are a preview, run.finished names the answer instead of repeating it', async () => {
    const flood = 'a'.repeat(2 * MiB);
    const f = await startFixture({ model: floodingModel(flood, 64 * 1024) });
    const { state } = await drive({ ports: f.ports, deltaChunkChars: 256 });

    const deltas = payloadsOf(f.store.events, 'model.delta').map((d) => d.text);
    expect(deltas.join('')).toBe('a'.repeat(DELTA_LOG_MAX_CHARS));
    const responded = f.store.events.find((e) => e.type === 'model.responded') as EngineEvent<'model.responded'>;
    expect(responded.payload).toMatchObject({ finishReason: 'length', truncated: true });
    expect(responded.payload.text).toBe(`${'a'.repeat(MODEL_OUTPUT_MAX_BYTES)}\n\n[answer truncated: ${outputCapReason(MODEL_OUTPUT_MAX_BYTES)}]`);
    const finished = f.store.events.at(-1) as EngineEvent<'run.finished'>;
    expect(finished.payload).toMatchObject({ status: 'succeeded', resultSeq: responded.seq });
    expect(state.result).toBe(responded.payload.text);

    // What the log keeps: the answer once (plus the preview), and a result that names it.
    const stored = f.store.events.map((e) => decodeEvent({ seq: e.seq, type: e.type, v: e.v, at: e.at, payload: storedPayload(e) }));
    expect(stored.at(-1)?.payload).toEqual({ status: 'succeeded', resultSeq: responded.seq });
    const bytes = stored.reduce((n, e) => n + JSON.stringify(e.payload).length, 0);
    expect(bytes).toBeLessThan(MODEL_OUTPUT_MAX_BYTES + DELTA_LOG_MAX_CHARS + 64 * 1024);
    // Replay and forks fold the stored log: the result comes back from the answer.
    expect(fold(stored).result).toBe(responded.payload.text);
  });

  it('a stream resumed after an abort logs the rest of the preview and no more, as an uninterrupted one does', async () => {
    const flood = 'b'.repeat(DELTA_LOG_MAX_CHARS * 2);
    const controller = new AbortController();
    const f = await startFixture({ model: floodingModel(flood, 1000, (i) => i === 40 && controller.abort()) });
    expect((await drive({ ports: f.ports, deltaChunkChars: 256, signal: controller.signal })).outcome).toEqual({ kind: 'aborted' });
    const before = payloadsOf(f.store.events, 'model.delta').reduce((n, d) => n + d.text.length, 0);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(DELTA_LOG_MAX_CHARS);
    await drive({ ports: { ...f.ports, model: floodingModel(flood, 1000) }, deltaChunkChars: 256 });
    const clean = await startFixture({ model: floodingModel(flood, 1000) });
    await drive({ ports: clean.ports, deltaChunkChars: 256 });
    expect(payloadsOf(f.store.events, 'model.delta').map((d) => d.text)).toEqual(payloadsOf(clean.store.events, 'model.delta').map((d) => d.text));
    expect(payloadsOf(f.store.events, 'model.delta').reduce((n, d) => n + d.text.length, 0)).toBe(DELTA_LOG_MAX_CHARS);
  });
});
