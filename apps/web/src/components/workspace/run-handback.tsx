'use client';

import { GitBranch, GitPullRequest } from 'lucide-react';
import { useMemo } from 'react';
import { branchWebUrl, deliveriesOf, webUrl, type OpenedPullRequest, type PushedBranch } from '@/lib/delivery-output';
import type { TimelineItem } from '@/lib/timeline';

function Pushed({ pushed }: { pushed: PushedBranch }) {
  const href = branchWebUrl(pushed.remote, pushed.branch);
  const branch = <span className="font-mono">{pushed.branch}</span>;
  return (
    <li className="flex flex-wrap items-center gap-x-1.5" data-testid="run-pushed-branch" data-branch={pushed.branch}>
      <GitBranch aria-hidden className="size-3.5 text-success" />
      <span>Pushed</span>
      {href ? (
        <a href={href} target="_blank" rel="noreferrer noopener" className="text-accent underline" data-testid="run-pushed-branch-link">
          {branch}
        </a>
      ) : (
        branch
      )}
      <span>to</span>
      <span className="font-mono break-all" data-testid="run-pushed-remote">
        {pushed.remote}
      </span>
      <span className="text-muted">at {pushed.commit.slice(0, 7)}</span>
    </li>
  );
}

function Opened({ opened }: { opened: OpenedPullRequest }) {
  const href = webUrl(opened.url);
  const label = `Pull request #${opened.number}`;
  return (
    <li className="flex flex-wrap items-center gap-x-1.5" data-testid="run-pull-request">
      <GitPullRequest aria-hidden className="size-3.5 text-success" />
      {href ? (
        <a href={href} target="_blank" rel="noreferrer noopener" className="text-accent underline" data-testid="run-pull-request-link">
          {label}
        </a>
      ) : (
        <span>{label}</span>
      )}
      <span className="text-muted">
        from <span className="font-mono">{opened.branch}</span> into <span className="font-mono">{opened.base}</span>
      </span>
    </li>
  );
}

/**
 * What the picked branch handed back, as its delivery tools reported it: each branch it pushed
 * (linked where the remote has a web page) and each pull request it opened. Read from the events
 * the page holds, so it follows the run live.
 */
export function RunHandback({ items }: { items: readonly TimelineItem[] }) {
  const deliveries = useMemo(() => deliveriesOf(items), [items]);
  if (deliveries.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-[13px]" data-testid="run-handback" aria-label="Work handed back">
      {deliveries.map((delivery) =>
        'pushed' in delivery ? <Pushed key={delivery.key} pushed={delivery.pushed} /> : <Opened key={delivery.key} opened={delivery.opened} />,
      )}
    </ul>
  );
}
