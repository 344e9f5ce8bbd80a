'use client';

import { workspaceSeededSchema, type WorkspaceSeed } from '@looplane/engine';
import { useQuery } from '@tanstack/react-query';
import { Download, FolderInput } from 'lucide-react';
import Link from 'next/link';
import { formatBytes } from '@/components/files/files-format';
import { useTRPC } from '@/trpc/client';

/** The patch download of a branch: the dashboard's cookie route of `GET /api/v1/sessions/{id}/patch`. */
function patchHref(teamId: string, sessionId: string): string {
  return `/api/teams/${encodeURIComponent(teamId)}/sessions/${encodeURIComponent(sessionId)}/patch`;
}

/** Another session's files: a link to that branch's files at the event they were taken at. */
function FromSession({ teamId, teamSlug, from }: { teamId: string; teamSlug: string; from: NonNullable<WorkspaceSeed['fromSession']> }) {
  const trpc = useTRPC();
  // The session's run, for the link (only its first event is sent; asked once per page).
  const source = useQuery({ ...trpc.sessions.events.queryOptions({ teamId, sessionId: from.sessionId, limit: 1 }), staleTime: Number.POSITIVE_INFINITY });
  const label = (
    <>
      session <span className="font-mono">{from.sessionId}</span> at #{from.atEvent}
    </>
  );
  if (!source.data) return label;
  const query = new URLSearchParams({ session: from.sessionId, tab: 'files', at: String(from.atEvent) });
  return (
    <Link href={`/t/${teamSlug}/runs/${source.data.runId}?${query}`} className="text-accent underline" data-testid="run-seed-session-link">
      {label}
    </Link>
  );
}

function Origin({ seed, teamId, teamSlug }: { seed: WorkspaceSeed; teamId: string; teamSlug: string }) {
  if (seed.source === 'git') {
    const ref = seed.ref ?? seed.branch;
    return (
      <>
        <span className="font-mono break-all" data-testid="run-seed-url">
          {seed.url}
        </span>
        {ref ? <span data-testid="run-seed-ref">@ {ref}</span> : null}
        {seed.revision ? (
          <span className="font-mono text-muted" title={seed.revision} data-testid="run-seed-revision">
            {seed.revision.slice(0, 7)}
          </span>
        ) : null}
      </>
    );
  }
  if (seed.source === 'archive') {
    return (
      <span>
        upload{' '}
        <span className="font-mono" data-testid="run-seed-filename">
          {seed.filename ?? seed.uploadId}
        </span>
      </span>
    );
  }
  return seed.fromSession ? <FromSession teamId={teamId} teamSlug={teamSlug} from={seed.fromSession} /> : <span>another session</span>;
}

/**
 * Where the run's files came from, when its log starts with `workspace.seeded` (the root session's
 * first event, which every branch inherits): the repository (URL, ref or the remote's default
 * branch, revision), the upload's name or the session it was taken from, and how many files; with
 * a download of what the shown branch changed since, as a patch series. Nothing for a run that
 * started empty. Until the run's first event exists, it looks again.
 */
export function RunSeed({ teamId, teamSlug, runId, sessionId }: { teamId: string; teamSlug: string; runId: string; sessionId: string }) {
  const trpc = useTRPC();
  const first = useQuery({
    // The run's first event alone (one indexed row).
    ...trpc.runs.events.queryOptions({ teamId, runId, after: 0, limit: 1 }),
    // The first event never changes once written; a queued run has none yet.
    staleTime: (query) => (query.state.data?.events.length ? Number.POSITIVE_INFINITY : 0),
    refetchInterval: (query) => (query.state.data?.events.length === 0 ? 2000 : false),
  });
  const event = first.data?.events[0];
  const seed = event?.type === 'workspace.seeded' ? workspaceSeededSchema.safeParse(event.payload) : null;
  if (!seed?.success) return null;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[13px]" data-testid="run-seed" data-source={seed.data.source}>
      <FolderInput aria-hidden className="size-3.5 text-muted" />
      <span className="text-muted">Files from</span>
      <Origin seed={seed.data} teamId={teamId} teamSlug={teamSlug} />
      <span className="text-muted" data-testid="run-seed-files">
        · {seed.data.files} {seed.data.files === 1 ? 'file' : 'files'}, {formatBytes(seed.data.bytes)}
      </span>
      <a
        href={patchHref(teamId, sessionId)}
        download
        className="ml-2 inline-flex items-center gap-1 text-accent underline"
        title="What this branch changed since, as a git format-patch series (git am applies it)"
        data-testid="run-download-patch"
      >
        <Download aria-hidden className="size-3.5" /> Download patch
      </a>
    </div>
  );
}
