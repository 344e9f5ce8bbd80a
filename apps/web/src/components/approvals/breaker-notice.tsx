import type { ApprovalItem } from './types';

const NAMES: Record<NonNullable<ApprovalItem['breaker']>['name'], string> = {
  repeatCall: 'Repeated call',
  noProgress: 'No progress',
  spendRate: 'Spend rate',
  fanOut: 'Fan-out',
};

/**
 * What a breaker measured when it paused the session (kind breaker), and what each decision does:
 * approving resumes the session with the breaker's window started afresh, rejecting cancels the run.
 */
export function BreakerNotice({ breaker }: { breaker: NonNullable<ApprovalItem['breaker']> }) {
  return (
    <div className="flex flex-col gap-1 rounded border border-border bg-surface-2 px-3 py-2 text-xs" data-testid="approval-breaker" data-breaker={breaker.name}>
      <span className="font-medium text-foreground">
        Breaker tripped: {NAMES[breaker.name]} ({breaker.name}){breaker.scope === 'graphRun' ? ', whole graph run' : ''}
      </span>
      <span className="text-muted" data-testid="approval-breaker-numbers">
        {breaker.observed} {breaker.unit} (limit {breaker.limit}), {breaker.window}
      </span>
      <span className="text-muted">Approve resumes the session (the breaker starts counting again); reject cancels the run.</span>
    </div>
  );
}
