import type { RouterOutputs } from '@/lib/api-types';
import { DecisionBadge } from './decision-badge';

type Saved = RouterOutputs['policies']['save'];

function describeCall(tool: string, args: Record<string, unknown>): string {
  if (tool === 'shell' && typeof args.command === 'string') return args.command;
  if (typeof args.path === 'string') return `${tool} ${args.path}`;
  if (typeof args.url === 'string') return `${tool} ${args.url}`;
  return `${tool} ${JSON.stringify(args)}`;
}

/** After a save: which of the team's recent real tool calls the new version decides differently. */
export function RedecidedCalls({ saved }: { saved: Saved }) {
  return (
    <div className="rounded-md border border-border bg-surface-2/50 p-3 text-[13px]" data-testid="policy-saved">
      <p className="font-medium">
        Saved version {saved.version}; it is active now. Checked {saved.checkedCalls} recent tool call{saved.checkedCalls === 1 ? '' : 's'}:{' '}
        {saved.redecided.length === 0 ? 'none would be decided differently.' : `${saved.redecided.length} would now be decided differently.`}
      </p>
      {saved.redecided.length > 0 ? (
        <ul className="mt-2 flex flex-col gap-1.5" data-testid="policy-redecided">
          {saved.redecided.map((call) => (
            <li key={`${call.runId}:${call.callId}`} className="flex flex-wrap items-center gap-2">
              <code className="rounded bg-surface px-1.5 py-0.5 font-mono text-xs">{describeCall(call.tool, call.args)}</code>
              <DecisionBadge outcome={call.before.outcome} role={call.before.approverRole} />
              <span aria-hidden>→</span>
              <DecisionBadge outcome={call.after.outcome} role={call.after.approverRole} />
              <span className="text-xs text-muted">rule {call.after.ruleId}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
