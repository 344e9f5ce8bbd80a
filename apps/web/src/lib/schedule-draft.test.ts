import { describe, expect, it } from 'vitest';
import { createFields, draftOf, type ScheduleFieldsView, updateFields } from './schedule-draft';

const stored: ScheduleFieldsView = {
  name: 'nightly',
  agentId: 'agent-1',
  graphId: null,
  cron: '0 2 * * *',
  everySeconds: null,
  timezone: 'Europe/Berlin',
  goal: 'Report for {{scheduledAt}}',
  overlap: 'skip',
  catchUp: 'latest',
  pauseAfterFailures: 5,
  enabled: true,
};

describe('schedule drafts', () => {
  it('sends nothing for an untouched schedule', () => {
    expect(updateFields(draftOf(stored), stored)).toEqual({});
  });

  it('clears the other half of a pair when the form switches', () => {
    const draft = { ...draftOf(stored), target: 'graph' as const, graphId: 'graph-1', timing: 'every' as const, everySeconds: '60' };
    expect(updateFields(draft, stored)).toEqual({ agentId: null, graphId: 'graph-1', cron: null, everySeconds: 60 });
  });

  it('sends only the fields that changed', () => {
    const draft = { ...draftOf(stored), name: ' weekly ', cron: '0 3 * * 1', overlap: 'queue' as const, pauseAfterFailures: '3' };
    expect(updateFields(draft, stored)).toEqual({ name: 'weekly', cron: '0 3 * * 1', overlap: 'queue', pauseAfterFailures: 3 });
  });

  it('creates with one of each pair and leaves empty numbers to the server', () => {
    const draft = { ...draftOf(stored), timing: 'every' as const, everySeconds: '', pauseAfterFailures: '' };
    expect(createFields(draft)).toEqual({
      name: 'nightly',
      agentId: 'agent-1',
      everySeconds: undefined,
      timezone: 'Europe/Berlin',
      goal: 'Report for {{scheduledAt}}',
      overlap: 'skip',
      catchUp: 'latest',
      pauseAfterFailures: undefined,
      enabled: true,
    });
  });
});
