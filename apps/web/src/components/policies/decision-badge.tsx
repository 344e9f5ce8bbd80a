import { Badge, type BadgeTone } from '@/components/ui/badge';

const TONE: Record<string, BadgeTone> = { allow: 'success', deny: 'danger', require_approval: 'warning' };
const LABEL: Record<string, string> = { allow: 'Allow', deny: 'Deny', require_approval: 'Require approval' };

/** A policy outcome as a coloured badge (`require_approval` names the approving role). */
export function DecisionBadge({ outcome, role, testId }: { outcome: string; role?: string | null; testId?: string }) {
  return (
    <Badge tone={TONE[outcome] ?? 'neutral'} data-testid={testId}>
      {LABEL[outcome] ?? outcome}
      {outcome === 'require_approval' && role ? ` (${role})` : ''}
    </Badge>
  );
}
