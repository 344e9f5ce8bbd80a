'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { InlineError } from '@/components/ui/inline-error';
import { Td, Tr } from '@/components/ui/table';
import type { RouterOutputs } from '@/lib/api-types';
import { formatDate, formatDateTime } from '@/lib/format';
import { useTRPC } from '@/trpc/client';

type SkillListItem = RouterOutputs['skills']['list'][number];

/** One skill of the library: its name links to the editor (read-only for viewers); archive asks once more, restore does not. */
export function SkillRow(props: { teamId: string; base: string; skill: SkillListItem; canEdit: boolean }) {
  const { skill } = props;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const archive = useMutation(
    trpc.skills.archive.mutationOptions({
      onSettled: () => {
        setConfirming(false);
        return queryClient.invalidateQueries(trpc.skills.pathFilter());
      },
    }),
  );
  const isArchived = skill.archivedAt !== null;

  return (
    <Tr data-testid="skill-row" data-skill-name={skill.name} data-archived={isArchived}>
      <Td className="max-w-xl py-2">
        <Link href={`${props.base}/skills/${skill.id}`} className="font-mono text-[13px] font-medium hover:text-accent" data-testid="skill-open">
          {skill.name}
        </Link>
        {isArchived ? (
          <Badge className="ml-2" data-testid="skill-archived">
            archived
          </Badge>
        ) : null}
        <div className="mt-0.5 text-xs text-muted" data-testid="skill-row-description">
          {skill.description}
        </div>
      </Td>
      <Td className="max-w-64 font-mono text-xs text-muted" title={skill.files.map((f) => f.path).join('\n') || undefined}>
        {skill.files.length === 0 ? '—' : `${skill.files.length} file${skill.files.length === 1 ? '' : 's'}`}
      </Td>
      <Td className="text-muted tabular-nums" data-testid="skill-row-version">
        v{skill.version}
      </Td>
      <Td className="text-muted" title={formatDateTime(skill.updatedAt)}>
        {formatDate(skill.updatedAt)}
      </Td>
      <Td className="py-2 text-right">
        {props.canEdit ? (
          <div className="flex justify-end gap-1">
            {isArchived ? (
              <Button
                size="sm"
                disabled={archive.isPending}
                onClick={() => archive.mutate({ teamId: props.teamId, skillId: skill.id, archived: false })}
                data-testid="skill-restore"
              >
                Restore
              </Button>
            ) : confirming ? (
              <>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={archive.isPending}
                  onClick={() => archive.mutate({ teamId: props.teamId, skillId: skill.id, archived: true })}
                  data-testid="skill-archive-confirm"
                >
                  Archive it
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setConfirming(false)} data-testid="skill-archive-cancel">
                  Cancel
                </Button>
              </>
            ) : (
              <Button
                size="sm"
                variant="danger-ghost"
                title="Runs stop being offered it; runs that loaded it keep its text"
                onClick={() => setConfirming(true)}
                data-testid="skill-archive"
              >
                Archive
              </Button>
            )}
          </div>
        ) : null}
        <InlineError error={archive.error} testId="skill-row-error" className="mt-1 text-left text-xs" />
      </Td>
    </Tr>
  );
}
