import { createEvent } from '@looplane/engine';
import { describe, expect, it } from 'vitest';
import { projectBatch } from './projection';

const clock = { now: () => Date.UTC(2026, 0, 1) };

describe('projectBatch', () => {
  it('sums charges and tool starts and finds the start and the finish of a run', () => {
    const projection = projectBatch([
      createEvent('budget.charged', { requestId: 'req-1', tokens: 100, costMicros: 7 }, clock),
      createEvent('tool.started', { callId: 'call-2', name: 'x', args: {}, attempt: 1 }, clock),
      createEvent('tool.started', { callId: 'call-3', name: 'x', args: {}, attempt: 1 }, clock),
      createEvent('budget.charged', { requestId: 'req-4', tokens: 50, costMicros: 3 }, clock),
      createEvent('run.finished', { status: 'failed', error: 'boom' }, clock),
    ]);
    expect(projection).toEqual({
      started: false,
      finished: { status: 'failed', result: null, error: 'boom' },
      spentTokens: 150,
      spentCostMicros: 10,
      toolCalls: 2,
    });
  });

  it('projects nothing for events that change no column', () => {
    expect(projectBatch([createEvent('message.added', { role: 'user', text: 'hi' }, clock)])).toEqual({
      started: false,
      finished: null,
      spentTokens: 0,
      spentCostMicros: 0,
      toolCalls: 0,
    });
  });
});
