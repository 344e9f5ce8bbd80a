import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../config/run-config';
import { createEvent } from '../events/create-event';
import type { EngineEvent, NewEvent } from '../events/event-types';
import { workspaceCommitOf } from '../events/workspace-commit';
import { next } from '../loop/next';
import { fold } from './fold';

const clock = { now: () => Date.parse('2026-12-01T00:00:00.000Z') };
const config = parseRunConfig({ model: { model: 'scripted', contextWindow: 8000, maxOutputTokens: 100 } });
const numbered = (events: NewEvent[]) => events.map((e, i) => ({ ...e, seq: i + 1 }) as EngineEvent);
const commit = (c: string) => c.repeat(40);

const restored = (paths?: string[]) =>
  createEvent('workspace.restored', { requestId: 'req1', atEvent: 2, commit: commit('b'), requestedBy: 'user1', ...(paths ? { paths } : {}) }, clock);

describe('workspace.restored in the fold', () => {
  it('leaves a finished branch finished (nothing for the loop to do) and tells the model with a pinned notice', () => {
    const state = fold(
      numbered([
        createEvent('run.started', { goal: 'Edit the files.', config }, clock),
        createEvent('run.finished', { status: 'succeeded', result: 'done' }, clock),
        restored(['src/a.ts']),
      ]),
    );
    expect(state).toMatchObject({ status: 'succeeded', result: 'done' });
    expect(next(state)).toEqual({ kind: 'done', status: 'succeeded' });
    const notice = state.context.at(-1)!;
    expect(notice).toMatchObject({ kind: 'notice', pinned: true });
    expect(JSON.stringify(notice.message)).toContain('These workspace paths were put back as they were at event #2: src/a.ts');
  });

  it('is where the files are from then on, like a mutating call’s commit', () => {
    const finished = createEvent('tool.finished', { callId: 'c1', ok: true, output: 'ok', truncated: false, commit: commit('a') }, clock);
    const read = createEvent('tool.finished', { callId: 'c2', ok: true, output: 'ok', truncated: false }, clock);
    expect([finished, read, restored()].map((e) => workspaceCommitOf(e as never))).toEqual([commit('a'), null, commit('b')]);
    expect(workspaceCommitOf(createEvent('run.resumed', { reason: 'operator' }, clock) as never)).toBeNull();
  });
});
