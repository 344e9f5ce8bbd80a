/**
 * A schedule as its form edits it (text fields as typed), and what a save sends: the whole of it
 * for a create, only what changed for an update, with `null` clearing the other half of a pair
 * (agent or graph, cron or interval) when the form switches between them.
 */
export interface ScheduleDraft {
  name: string;
  target: 'agent' | 'graph';
  agentId: string;
  graphId: string;
  timing: 'cron' | 'every';
  cron: string;
  everySeconds: string;
  timezone: string;
  goal: string;
  overlap: 'skip' | 'queue' | 'cancel_previous';
  catchUp: 'none' | 'latest';
  pauseAfterFailures: string;
  enabled: boolean;
}

/** The stored fields a draft starts from when editing. */
export interface ScheduleFieldsView {
  name: string;
  agentId: string | null;
  graphId: string | null;
  cron: string | null;
  everySeconds: number | null;
  timezone: string;
  goal: string;
  overlap: ScheduleDraft['overlap'];
  catchUp: ScheduleDraft['catchUp'];
  pauseAfterFailures: number;
  enabled: boolean;
}

export function draftOf(schedule: ScheduleFieldsView): ScheduleDraft {
  return {
    name: schedule.name,
    target: schedule.graphId ? 'graph' : 'agent',
    agentId: schedule.agentId ?? '',
    graphId: schedule.graphId ?? '',
    timing: schedule.cron ? 'cron' : 'every',
    cron: schedule.cron ?? '',
    everySeconds: schedule.everySeconds === null ? '' : String(schedule.everySeconds),
    timezone: schedule.timezone,
    goal: schedule.goal,
    overlap: schedule.overlap,
    catchUp: schedule.catchUp,
    pauseAfterFailures: String(schedule.pauseAfterFailures),
    enabled: schedule.enabled,
  };
}

/** A number field as typed: empty stays undefined (the server names it missing), anything else goes as a number (the server checks it). */
const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/** What `schedules.create` takes from a draft (without teamId). */
export function createFields(draft: ScheduleDraft) {
  return {
    name: draft.name.trim(),
    ...(draft.target === 'agent' ? { agentId: draft.agentId || undefined } : { graphId: draft.graphId || undefined }),
    ...(draft.timing === 'cron' ? { cron: draft.cron } : { everySeconds: numberOf(draft.everySeconds) }),
    timezone: draft.timezone.trim(),
    goal: draft.goal,
    overlap: draft.overlap,
    catchUp: draft.catchUp,
    pauseAfterFailures: numberOf(draft.pauseAfterFailures),
    enabled: draft.enabled,
  };
}

/** What `schedules.update` takes from a draft (without teamId and scheduleId): the fields that differ from `stored`. */
export function updateFields(draft: ScheduleDraft, stored: ScheduleFieldsView) {
  const wanted = createFields(draft);
  const changes: {
    name?: string;
    agentId?: string | null;
    graphId?: string | null;
    cron?: string | null;
    everySeconds?: number | null;
    timezone?: string;
    goal?: string;
    overlap?: ScheduleDraft['overlap'];
    catchUp?: ScheduleDraft['catchUp'];
    pauseAfterFailures?: number;
  } = {};
  if (wanted.name !== stored.name) changes.name = wanted.name;
  if (draft.target === 'agent') {
    if (draft.agentId !== (stored.agentId ?? '')) changes.agentId = draft.agentId || null;
    if (stored.graphId) changes.graphId = null;
  } else {
    if (draft.graphId !== (stored.graphId ?? '')) changes.graphId = draft.graphId || null;
    if (stored.agentId) changes.agentId = null;
  }
  if (draft.timing === 'cron') {
    if (draft.cron.trim() !== (stored.cron ?? '')) changes.cron = draft.cron.trim() || null;
    if (stored.everySeconds !== null) changes.everySeconds = null;
  } else {
    const every = numberOf(draft.everySeconds) ?? null;
    if (every !== stored.everySeconds) changes.everySeconds = every;
    if (stored.cron !== null) changes.cron = null;
  }
  if (wanted.timezone !== stored.timezone) changes.timezone = wanted.timezone;
  if (wanted.goal !== stored.goal) changes.goal = wanted.goal;
  if (wanted.overlap !== stored.overlap) changes.overlap = wanted.overlap;
  if (wanted.catchUp !== stored.catchUp) changes.catchUp = wanted.catchUp;
  if (wanted.pauseAfterFailures !== stored.pauseAfterFailures && wanted.pauseAfterFailures !== undefined)
    changes.pauseAfterFailures = wanted.pauseAfterFailures;
  return changes;
}
