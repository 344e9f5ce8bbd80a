'use client';

import { FolderOpen } from 'lucide-react';
import { useId } from 'react';
import { FilesPanel } from '@/components/files/files-panel';
import { Button } from '@/components/ui/button';
import { BranchActions } from './branch-actions';
import { isFinished, type SessionNode } from './session-format';
import type { BranchState } from './use-branch-state';

/**
 * The picked branch: its actions (promote, replay, resume) and its workspace files. Its events
 * are the run page's one timeline (the picked branch drives it), where each event has "Fork from
 * here" and "Files at #N"; the latter opens the files here at that event.
 */
export function BranchDetail({
  teamId,
  node,
  canOperate,
  branch,
  onChanged,
  onReplay,
}: {
  teamId: string;
  node: SessionNode;
  canOperate: boolean;
  branch: BranchState;
  onChanged: () => void;
  onReplay: () => void;
}) {
  const filesId = useId();
  const live = !isFinished(node.status);
  return (
    <div className="rounded border border-border" data-testid="branch-detail" data-session-id={node.id}>
      <div className="flex flex-wrap items-center gap-2">
        {canOperate ? <BranchActions teamId={teamId} node={node} onChanged={onChanged} onReplay={onReplay} /> : null}
        <Button
          size="sm"
          variant="ghost"
          className="mx-3 my-2"
          aria-expanded={branch.filesOpen}
          aria-controls={filesId}
          onClick={() => branch.setFilesOpen(!branch.filesOpen)}
          data-testid="branch-tab-files"
        >
          <FolderOpen aria-hidden className="size-3" /> {branch.filesOpen ? 'Hide files' : 'Files'}
          {branch.filesAt !== null ? ` at #${branch.filesAt}` : ''}
        </Button>
      </div>
      {branch.filesOpen ? (
        <div id={filesId} className="border-t border-border">
          <FilesPanel teamId={teamId} sessionId={node.id} atEvent={branch.filesAt} live={live} onPickEvent={branch.showFiles} />
        </div>
      ) : null}
    </div>
  );
}
