'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTeamActivity } from '@/components/live/team-activity';
import { useTeamScope } from '@/components/team-context';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Select } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';
import { DecisionBadge } from './decision-badge';

type Version = RouterOutputs['policies']['versions'][number];

/** Recent disagreements shown; the count covers all of them. */
const SHOWN = 10;

/**
 * The shadow policy: a saved version the worker decides every live call under as well, without
 * enforcing it. Shows which version, how many calls it decided otherwise than the active one
 * (live: the team activity stream says when the worker records one) and the latest of them;
 * admins set, clear and promote it.
 */
export function PolicyShadow({ versions }: { versions: Version[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { team, role } = useTeamScope();
  const isAdmin = role === 'admin';
  const input = { teamId: team.id, limit: SHOWN };
  const shadow = useQuery(trpc.policies.shadowDisagreements.queryOptions(input));
  const refetch = () => void queryClient.invalidateQueries({ queryKey: trpc.policies.shadowDisagreements.queryKey(input) });
  useTeamActivity((activity) => {
    if (activity.kind === 'policy.shadow_disagreed' || activity.kind === 'ready') refetch();
  });
  const afterChange = { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.policies.pathKey() }) };
  const set = useMutation(trpc.policies.setShadow.mutationOptions(afterChange));
  const promote = useMutation(trpc.policies.promoteShadow.mutationOptions(afterChange));
  const candidates = versions.filter((v) => !v.active);
  const [picked, setPicked] = useState<number | null>(null);
  const choice = picked ?? candidates[0]?.version ?? null;
  const current = shadow.data?.shadow ?? null;

  return (
    <Card>
      <CardHeader
        title="Shadow policy"
        description="Every live tool call is also decided under the shadow version, which is never enforced; calls it decides otherwise are listed here."
        actions={
          current ? (
            <span className="text-xs" data-testid="shadow-count">
              <span className="font-medium tabular-nums">{shadow.data?.count ?? 0}</span> disagreement{shadow.data?.count === 1 ? '' : 's'}
            </span>
          ) : null
        }
      />
      <div className="flex flex-col gap-3 p-4 text-[13px]">
        <InlineError error={shadow.error ?? set.error ?? promote.error} testId="shadow-error" />
        {current ? (
          <div className="flex flex-wrap items-center gap-2" data-testid="shadow-current">
            <span>
              Shadow: <span className="font-mono">v{current.version}</span> against active <span className="font-mono">v{current.activeVersion}</span>
            </span>
            <span className="text-xs text-muted">
              {current.setAt ? `set ${formatDateTime(current.setAt)}` : ''}
              {current.setBy ? ` by ${current.setBy}` : ''}
            </span>
            {isAdmin ? (
              <span className="ml-auto flex gap-2">
                <Button
                  variant="primary"
                  size="sm"
                  disabled={promote.isPending}
                  onClick={() => promote.mutate({ teamId: team.id })}
                  data-testid="shadow-promote"
                >
                  Promote to active
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={set.isPending}
                  onClick={() => set.mutate({ teamId: team.id, version: null })}
                  data-testid="shadow-clear"
                >
                  Clear
                </Button>
              </span>
            ) : null}
          </div>
        ) : shadow.data ? (
          <p className="text-muted" data-testid="shadow-none">
            No shadow version is set.
          </p>
        ) : null}
        {promote.data ? (
          <p className="text-success" data-testid="shadow-promoted">
            Version {promote.data.version} is active now (was {promote.data.previousVersion}).
          </p>
        ) : null}
        {isAdmin && candidates.length > 0 ? (
          <div className="flex items-end gap-2">
            <Field label={current ? 'Shadow another version' : 'Shadow a version'} htmlFor="shadow-version">
              <Select id="shadow-version" value={choice ?? ''} onChange={(e) => setPicked(Number(e.target.value))} data-testid="shadow-version">
                {candidates.map((v) => (
                  <option key={v.version} value={v.version}>
                    v{v.version}
                    {v.comment ? ` — ${v.comment}` : ''}
                  </option>
                ))}
              </Select>
            </Field>
            <Button
              disabled={choice === null || set.isPending || choice === current?.version}
              onClick={() => choice !== null && set.mutate({ teamId: team.id, version: choice })}
              data-testid="shadow-set"
            >
              Set as shadow
            </Button>
          </div>
        ) : null}
        {current && shadow.data && shadow.data.items.length > 0 ? <Disagreements items={shadow.data.items} teamSlug={team.slug} /> : null}
      </div>
    </Card>
  );
}

type Item = RouterOutputs['policies']['shadowDisagreements']['items'][number];

function Disagreements({ items, teamSlug }: { items: Item[]; teamSlug: string }) {
  return (
    <ul className="divide-y divide-border rounded-md border border-border" data-testid="shadow-disagreements">
      {items.map((d) => (
        <li key={d.id} className="flex flex-wrap items-center gap-2 px-3 py-2" data-testid="shadow-disagreement">
          <code className="rounded bg-surface-2 px-1.5 py-0.5 font-mono text-xs">{d.tool}</code>
          <DecisionBadge outcome={d.active.outcome} />
          <span className="text-xs text-muted">{d.active.ruleId}</span>
          <span aria-hidden>→</span>
          <DecisionBadge outcome={d.shadow.outcome} />
          <span className="text-xs text-muted">{d.shadow.ruleId} (shadow)</span>
          <Link href={`/t/${teamSlug}/runs/${d.runId}`} className="ml-auto text-xs text-accent" data-testid="shadow-run-link">
            Run{d.seq !== null ? ` #${d.seq}` : ''}
          </Link>
          <span className="text-xs text-muted">{formatDateTime(d.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}
