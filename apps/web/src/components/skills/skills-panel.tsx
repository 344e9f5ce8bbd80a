'use client';

import { roleAtLeast } from '@looplane/shared';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { useTeamScope } from '@/components/team-context';
import { Card, CardHeader } from '@/components/ui/card';
import { InlineError } from '@/components/ui/inline-error';
import { Table, TableMessage, Th } from '@/components/ui/table';
import { useTRPC } from '@/trpc/client';
import { SkillRow } from './skill-row';

const COLUMNS = 5;

/**
 * The team's skill library: each skill's name, one line, files and version; operators create,
 * edit, archive and restore them, viewers read them. Archived skills are listed on request (an
 * agent's runs are no longer offered them, and their names stay taken).
 */
export function SkillsPanel() {
  const trpc = useTRPC();
  const { team, role } = useTeamScope();
  const base = `/t/${team.slug}`;
  const [archived, setArchived] = useState(false);
  const skills = useQuery(trpc.skills.list.queryOptions({ teamId: team.id, archived }));
  const canEdit = roleAtLeast(role, 'operator');

  return (
    <Card>
      <CardHeader
        title={archived ? 'Skills, archived ones included' : 'Skills'}
        description="Instructions (and small files) an agent loads only when it needs them: the model sees each skill's name and one line, and calls load_skill for the rest."
        actions={
          <>
            <label className="flex items-center gap-1.5 text-xs text-muted">
              <input type="checkbox" checked={archived} onChange={(event) => setArchived(event.target.checked)} data-testid="skills-show-archived" />
              Show archived
            </label>
            {canEdit ? (
              <Link
                href={`${base}/skills/new`}
                className="inline-flex h-7 items-center gap-1.5 rounded-md bg-accent px-2.5 text-xs font-medium text-accent-foreground hover:bg-accent-hover"
                data-testid="skills-new"
              >
                <Plus aria-hidden className="size-3.5" /> New skill
              </Link>
            ) : null}
          </>
        }
      />
      <InlineError error={skills.error} testId="skills-load-error" className="m-4" />
      <Table>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Files</Th>
            <Th>Version</Th>
            <Th>Updated</Th>
            <Th className="text-right">
              <span className="sr-only">Actions</span>
            </Th>
          </tr>
        </thead>
        <tbody data-testid="skills-table">
          {skills.isPending ? <TableMessage colSpan={COLUMNS}>Loading skills…</TableMessage> : null}
          {skills.data?.length === 0 ? <TableMessage colSpan={COLUMNS}>No skills yet.</TableMessage> : null}
          {skills.data?.map((skill) => (
            <SkillRow key={skill.id} teamId={team.id} base={base} skill={skill} canEdit={canEdit} />
          ))}
        </tbody>
      </Table>
    </Card>
  );
}
