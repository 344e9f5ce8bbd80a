'use client';

import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/field';
import { useTRPC } from '@/trpc/client';

export interface AuditFilterValues {
  actorId?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
}

/** The filters' query-string keys (all empty by default). */
export const AUDIT_URL_DEFAULTS = { actor: '', action: '', targetType: '', targetId: '', from: '', to: '' };
type AuditUrlKey = keyof typeof AUDIT_URL_DEFAULTS;

/** A date of the query string (ISO), or undefined when missing or not a date. */
function urlDate(text: string): Date | undefined {
  if (!text) return undefined;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** The filters a query string names (an unreadable date is left out). */
export function filtersFromUrl(get: (key: AuditUrlKey) => string): AuditFilterValues {
  const text = (key: AuditUrlKey) => get(key).trim() || undefined;
  return {
    actorId: text('actor'),
    action: text('action'),
    targetType: text('targetType'),
    targetId: text('targetId'),
    from: urlDate(get('from')),
    to: urlDate(get('to')),
  };
}

/** The query string of some filters. */
export function filtersToUrl(filters: AuditFilterValues): Record<AuditUrlKey, string> {
  return {
    actor: filters.actorId ?? '',
    action: filters.action ?? '',
    targetType: filters.targetType ?? '',
    targetId: filters.targetId ?? '',
    from: filters.from?.toISOString() ?? '',
    to: filters.to?.toISOString() ?? '',
  };
}

/** A date as a datetime-local input shows it (local time, minutes). */
function localInput(at: Date | undefined): string {
  if (!at) return '';
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Filters for the audit table: actor (a member), action (exact or `prefix.`), target, time range. */
export function AuditFilters({ teamId, initial, onApply }: { teamId: string; initial: AuditFilterValues; onApply: (filters: AuditFilterValues) => void }) {
  const trpc = useTRPC();
  const members = useQuery(trpc.teams.members.queryOptions({ teamId }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (key: string) => String(form.get(key) ?? '').trim() || undefined;
    const date = (key: string) => (text(key) ? new Date(text(key)!) : undefined);
    onApply({
      actorId: text('actorId'),
      action: text('action'),
      targetType: text('targetType'),
      targetId: text('targetId'),
      from: date('from'),
      to: date('to'),
    });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-3 p-4 sm:grid-cols-3 lg:grid-cols-[repeat(6,minmax(0,1fr))_auto] lg:items-end" data-testid="audit-filters">
      <Field label="Actor" htmlFor="audit-actor">
        <Select
          id="audit-actor"
          name="actorId"
          defaultValue={initial.actorId ?? ''}
          key={`actor-${members.data ? 'loaded' : 'loading'}`}
          data-testid="audit-filter-actor"
        >
          <option value="">Anyone</option>
          {members.data?.map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.email}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Action" htmlFor="audit-action">
        <Input
          id="audit-action"
          name="action"
          maxLength={200}
          placeholder="policy.saved or policy."
          defaultValue={initial.action ?? ''}
          data-testid="audit-filter-action"
        />
      </Field>
      <Field label="Target type" htmlFor="audit-target-type">
        <Input
          id="audit-target-type"
          name="targetType"
          maxLength={200}
          placeholder="endpoint"
          defaultValue={initial.targetType ?? ''}
          data-testid="audit-filter-target-type"
        />
      </Field>
      <Field label="Target id" htmlFor="audit-target-id">
        <Input id="audit-target-id" name="targetId" maxLength={200} defaultValue={initial.targetId ?? ''} data-testid="audit-filter-target-id" />
      </Field>
      <Field label="From" htmlFor="audit-from">
        <Input id="audit-from" name="from" type="datetime-local" defaultValue={localInput(initial.from)} data-testid="audit-filter-from" />
      </Field>
      <Field label="To" htmlFor="audit-to">
        <Input id="audit-to" name="to" type="datetime-local" defaultValue={localInput(initial.to)} data-testid="audit-filter-to" />
      </Field>
      <Button type="submit" data-testid="audit-filter-apply">
        Apply
      </Button>
    </form>
  );
}
