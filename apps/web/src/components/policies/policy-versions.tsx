'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Select } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';
import { PolicyDiffView } from './policy-diff-view';

type Version = RouterOutputs['policies']['versions'][number];

/** Every version kept, newest first, and the diff between any two of them. */
export function PolicyVersions({ teamId, versions }: { teamId: string; versions: Version[] }) {
  const trpc = useTRPC();
  const newest = versions[0]?.version ?? 0;
  const [from, setFrom] = useState<number>(versions[1]?.version ?? 0);
  const [to, setTo] = useState<number>(newest);
  const diff = useQuery(trpc.policies.diff.queryOptions({ teamId, from, to }));

  return (
    <Card>
      <CardHeader title="Versions" description="Every saved version is kept; the database refuses to change one." />
      <ul className="divide-y divide-border" data-testid="policy-versions">
        {versions.map((v) => (
          <li key={v.version} className="flex items-center gap-3 px-4 py-2 text-[13px]" data-testid={`policy-version-${v.version}`}>
            <span className="w-10 font-mono">v{v.version}</span>
            {v.active ? <Badge tone="accent">active</Badge> : null}
            <span className="min-w-0 flex-1 truncate text-muted">{v.comment || '—'}</span>
            <span className="text-xs text-muted">
              {v.builtin ? 'built in' : `${v.createdBy ?? 'unknown'} · ${v.createdAt ? formatDateTime(v.createdAt) : ''}`}
            </span>
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-3 border-t border-border p-4">
        <div className="grid grid-cols-2 gap-3">
          <Field label="From" htmlFor="diff-from">
            <Select id="diff-from" value={from} onChange={(e) => setFrom(Number(e.target.value))} data-testid="diff-from">
              {versions.map((v) => (
                <option key={v.version} value={v.version}>
                  v{v.version}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="To" htmlFor="diff-to">
            <Select id="diff-to" value={to} onChange={(e) => setTo(Number(e.target.value))} data-testid="diff-to">
              {versions.map((v) => (
                <option key={v.version} value={v.version}>
                  v{v.version}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <InlineError error={diff.error} testId="diff-error" />
        {diff.data ? <PolicyDiffView diff={diff.data.diff} /> : null}
      </div>
    </Card>
  );
}
