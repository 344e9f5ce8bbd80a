'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import type { CreatedToken } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';
import { CreateTokenForm } from './create-token-form';
import { TokenSecret } from './token-secret';
import { TokensTable } from './tokens-table';

/** API tokens of the team: create (operator+), see the secret once, list and revoke. */
export function TokensPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const canCreate = roleAtLeast(role, 'operator');
  const tokens = useQuery(trpc.tokens.list.queryOptions({ teamId: team.id }));
  const [created, setCreated] = useState<(CreatedToken & { name: string }) | null>(null);

  return (
    <div className="flex flex-col gap-6">
      {created ? <TokenSecret token={created} onDismiss={() => setCreated(null)} /> : null}
      {canCreate ? (
        <CreateTokenForm teamId={team.id} maxRole={role} onCreated={setCreated} />
      ) : (
        <p className="rounded-md border border-border bg-surface-2/60 px-4 py-3 text-muted" data-testid="tokens-viewer-note">
          Viewers cannot create API tokens. Ask an operator or admin if you need one.
        </p>
      )}
      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              {role === 'admin' ? 'All tokens of this team' : 'Your tokens'}
              {tokens.data ? <Badge data-testid="token-count">{tokens.data.length}</Badge> : null}
            </span>
          }
          description="A token acts for its creator, inside this team only, with at most its own role. Revoking takes effect on the next request."
        />
        <InlineError error={tokens.error} testId="tokens-load-error" className="m-4" />
        <TokensTable teamId={team.id} tokens={tokens.data} loading={tokens.isPending} />
      </Card>
    </div>
  );
}
