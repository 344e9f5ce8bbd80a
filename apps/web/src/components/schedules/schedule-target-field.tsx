'use client';

import { Field, Select } from '@/components/ui/field';
import type { ScheduleDraft } from '@/lib/schedule-draft';

interface Named {
  id: string;
  name: string;
}

/** What a tick runs: one of the team's agents or one of its graphs. */
export function ScheduleTargetField(props: {
  id: string;
  draft: ScheduleDraft;
  set: (patch: Partial<ScheduleDraft>) => void;
  agents: readonly Named[];
  graphs: readonly Named[];
}) {
  const { id, draft, set } = props;
  const isAgent = draft.target === 'agent';
  const options = isAgent ? props.agents : props.graphs;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-4 text-xs font-medium text-muted" role="radiogroup" aria-label="Runs">
        <label className="flex items-center gap-1.5">
          <input type="radio" name={`${id}-target`} checked={isAgent} onChange={() => set({ target: 'agent' })} data-testid="schedule-target-agent" />
          Agent
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name={`${id}-target`} checked={!isAgent} onChange={() => set({ target: 'graph' })} data-testid="schedule-target-graph" />
          Graph
        </label>
      </div>
      <Field label={isAgent ? 'Agent to run' : 'Graph to run'} htmlFor={`${id}-target`}>
        <Select
          id={`${id}-target`}
          value={isAgent ? draft.agentId : draft.graphId}
          onChange={(event) => set(isAgent ? { agentId: event.target.value } : { graphId: event.target.value })}
          data-testid={isAgent ? 'schedule-agent' : 'schedule-graph'}
        >
          <option value="">Choose {isAgent ? 'an agent' : 'a graph'}…</option>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}
