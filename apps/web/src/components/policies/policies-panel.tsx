'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { PolicyBacktest } from './policy-backtest';
import { PolicyEditor } from './policy-editor';
import { PolicyShadow } from './policy-shadow';
import { PolicySimulator } from './policy-simulator';
import { PolicyVersions } from './policy-versions';

/** The Policies page: editor with live validation, simulator, versions with diffs. */
export function PoliciesPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const active = useQuery(trpc.policies.get.queryOptions({ teamId: team.id }));
  const versions = useQuery(trpc.policies.versions.queryOptions({ teamId: team.id }));
  const initialText = active.data ? JSON.stringify(active.data.document, null, 2) : '';
  const [text, setText] = useState<string | null>(null);
  // The editor starts from the active version, and starts over from it when a save makes a new one.
  const [loadedVersion, setLoadedVersion] = useState<number | null>(null);
  useEffect(() => {
    if (active.data && active.data.version !== loadedVersion) {
      setLoadedVersion(active.data.version);
      setText(initialText);
    }
  }, [active.data, loadedVersion, initialText]);

  return (
    <div className="flex flex-col gap-6">
      <InlineError error={active.error ?? versions.error} testId="policies-load-error" />
      {active.data && text !== null ? (
        <>
          <p className="text-[13px] text-muted" data-testid="policy-active">
            Active: version {active.data.version}
            {active.data.builtin ? ' (the built-in default policy)' : ''}
          </p>
          <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <PolicyEditor teamId={team.id} initialText={initialText} canSave={role === 'admin'} text={text} onTextChange={setText} />
            <PolicySimulator teamId={team.id} draft={text} />
          </div>
          <PolicyBacktest teamId={team.id} draft={text} />
        </>
      ) : active.isPending ? (
        <p className="text-muted">Loading the policy…</p>
      ) : null}
      {versions.data ? <PolicyShadow versions={versions.data} /> : null}
      {versions.data ? <PolicyVersions key={versions.data[0]?.version} teamId={team.id} versions={versions.data} /> : null}
    </div>
  );
}
