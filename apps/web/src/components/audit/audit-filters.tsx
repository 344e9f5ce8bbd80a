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

/** Filters for the audit table: actor (a member), action (exact or `prefix.`), target, time range. */
export function AuditFilters({ teamId, onApply }: { teamId: string; onApply: (filters: AuditFilterValues) => void }) {
  const trpc = useTRPC();
  const members = useQuery(trpc.teams.members.queryOptions({ teamId }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (key: string) => String(form.get(key) ?? '').trim() || undefined;
    const date = (key: string) => (text(key) ? new Date(text(key)!) : undefined);
    onApply({ actorId: text('actorId'), action: text('action'), targetType: text('targetType'), targetId: text('targetId'), from: date('from'), to: date('to') });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-3 p-4 sm:grid-cols-3 lg:grid-cols-[repeat(6,minmax(0,1fr))_auto] lg:items-end" data-testid="audit-filters">
      <Field label="Actor" htmlFor="audit-actor">
        <Select id="audit-actor" name="actorId" defaultValue="" data-testid="audit-filter-actor">
          <option value="">Anyone</option>
          {members.data?.map((m) => (
            <option key={m.userId} value={m.userId}>{m.email}</option>
          ))}
        </Select>
      </Field>
      <Field label="Action" htmlFor="audit-action">
        <Input id="audit-action" name="action" maxLength={200} placeholder="policy.saved or policy." data-testid="audit-filter-action" />
      </Field>
      <Field label="Target type" htmlFor="audit-target-type">
        <Input id="audit-target-type" name="targetType" maxLength={200} placeholder="endpoint" />
      </Field>
      <Field label="Target id" htmlFor="audit-target-id">
        <Input id="audit-target-id" name="targetId" maxLength={200} />
      </Field>
      <Field label="From" htmlFor="audit-from">
        <Input id="audit-from" name="from" type="datetime-local" />
      </Field>
      <Field label="To" htmlFor="audit-to">
        <Input id="audit-to" name="to" type="datetime-local" />
      </Field>
      <Button type="submit" data-testid="audit-filter-apply">Apply</Button>
    </form>
  );
}
