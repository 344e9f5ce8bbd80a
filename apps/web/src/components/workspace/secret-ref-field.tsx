'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { KIND_LABELS } from '@/components/secrets/secret-kinds';
import { useTeamScope } from '@/components/team-context';
import { Field, Input, Select } from '@/components/ui/field';
import { useTRPC } from '@/trpc/client';

/**
 * The team secret a repository is fetched (and pushed) with. Admins pick one of the team's forge
 * tokens and SSH keys (only they may list secrets); anyone else types its name, which the server
 * checks when the run is created.
 */
export function SecretRefField({ id, value, onChange, testId }: { id: string; value: string; onChange: (name: string) => void; testId: string }) {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const isAdmin = role === 'admin';
  const secrets = useQuery({ ...trpc.secrets.list.queryOptions({ teamId: team.id }), enabled: isAdmin });

  if (!isAdmin) {
    return (
      <Field label="Secret (optional)" htmlFor={id} hint="The name of a team secret: a forge token for https, an SSH key for ssh. Ask an admin for it.">
        <Input id={id} value={value} maxLength={100} onChange={(e) => onChange(e.target.value)} placeholder="GITHUB_TOKEN" data-testid={testId} />
      </Field>
    );
  }
  const usable = secrets.data?.secrets.filter((secret) => secret.kind === 'token' || secret.kind === 'ssh_key') ?? [];
  // A name typed elsewhere (an agent's default) stays choosable even when it names no secret now.
  const unknown = value !== '' && secrets.data && !usable.some((secret) => secret.name === value);
  return (
    <Field
      label="Secret (optional)"
      htmlFor={id}
      // Underlined: a link inside a sentence must not be told apart by its colour alone.
      hint={
        <>
          A forge token (https) or SSH key (ssh) of the team:{' '}
          <Link href={`/t/${team.slug}/settings/secrets`} className="text-accent underline">
            Settings → Secrets
          </Link>
        </>
      }
    >
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} disabled={secrets.isPending} data-testid={testId}>
        <option value="">None (a public repository)</option>
        {usable.map((secret) => (
          <option key={secret.id} value={secret.name}>
            {secret.name} ({KIND_LABELS[secret.kind]})
          </option>
        ))}
        {unknown ? <option value={value}>{value} (no such token or SSH key)</option> : null}
      </Select>
    </Field>
  );
}
