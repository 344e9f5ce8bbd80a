import type { RouterOutputs } from '@/lib/api-types';

type Diff = RouterOutputs['policies']['diff']['diff'];

const show = (value: unknown) => JSON.stringify(value);

/** A policy diff as lines: added and removed rules, changed fields, order and section changes. */
export function PolicyDiffView({ diff }: { diff: Diff }) {
  if (diff.unchanged)
    return (
      <p className="text-[13px] text-muted" data-testid="policy-diff">
        No differences.
      </p>
    );
  return (
    <ul className="flex flex-col gap-1 font-mono text-xs" data-testid="policy-diff">
      {diff.rules.added.map(({ rule, index }) => (
        <li key={`a-${rule.id}`} className="text-success">
          + rule {rule.id} at {index + 1}: {rule.outcome} when {show(rule.match)}
        </li>
      ))}
      {diff.rules.removed.map(({ rule }) => (
        <li key={`r-${rule.id}`} className="text-danger">
          - rule {rule.id}: {rule.outcome} when {show(rule.match)}
        </li>
      ))}
      {diff.rules.changed.flatMap((change) =>
        change.changes.map((c) => (
          <li key={`c-${change.id}-${c.path}`} className="text-warning">
            ~ rule {change.id} {c.path}: {show(c.before)} → {show(c.after)}
          </li>
        )),
      )}
      {diff.rules.reordered ? (
        <li className="text-warning">
          ~ rule order: {diff.rules.orderBefore.join(', ')} → {diff.rules.orderAfter.join(', ')}
        </li>
      ) : null}
      {diff.sections.map((c) => (
        <li key={`s-${c.path}`} className="text-warning">
          ~ {c.path}: {show(c.before)} → {show(c.after)}
        </li>
      ))}
    </ul>
  );
}
