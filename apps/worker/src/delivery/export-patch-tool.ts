import { loadSessionEvents, runSeed, type Queryable } from '@looplane/db';
import { workspaceCommitOf, workspaceSeededSchema, type ToolResult } from '@looplane/engine';
import { formatPatch } from '@looplane/workspaces';

/** The most of a patch a tool result carries; the whole series is downloadable. */
const MAX_OUTPUT_CHARS = 200_000;

export interface ExportPatchRequest {
  pool: Queryable;
  runId: string;
  sessionId: string;
  /** An event of the session whose files are the base; default the seeded files. */
  base: number | null;
  sessionGitDir: string;
  head: string;
}

/**
 * A `git format-patch` series of what the session changed since its seeded files (or since event
 * `base`): one message per call that changed files, binary-safe, so `git am` on the repository
 * the run started from reproduces the workspace. The same series is served whole by
 * `GET /api/v1/sessions/{sessionId}/patch`.
 */
export async function exportPatchTool(request: ExportPatchRequest): Promise<ToolResult> {
  let base: string | null;
  if (request.base === null) {
    const seed = workspaceSeededSchema.safeParse(await runSeed(request.pool, request.runId));
    if (!seed.success)
      return {
        ok: false,
        output: 'no patch: this run did not start from files (a repository, an upload or a session); give base, an event whose files are the base',
      };
    base = seed.data.commit;
  } else {
    const events = await loadSessionEvents(request.pool, request.sessionId);
    if (request.base > (events.at(-1)?.seq ?? 0)) return { ok: false, output: `no patch: base ${request.base} is past the session's last event` };
    base = null;
    for (const event of events) {
      if (event.seq > request.base) break;
      base = workspaceCommitOf(event) ?? base;
    }
    if (!base) return { ok: false, output: `no patch: the session had no files at event ${request.base}` };
  }
  const patch = await formatPatch({ gitDir: request.sessionGitDir }, base, request.head);
  const download = `GET /api/v1/sessions/${request.sessionId}/patch${request.base === null ? '' : `?base=${request.base}`}`;
  if (patch === '')
    return { ok: true, output: `No changes since ${request.base === null ? 'the seeded files' : `event ${request.base}`}: the patch is empty.` };
  const messages = patch.match(/^From [0-9a-f]{40} /gm)?.length ?? 0;
  const shown =
    patch.length > MAX_OUTPUT_CHARS ? `${patch.slice(0, MAX_OUTPUT_CHARS)}\n[patch cut at ${MAX_OUTPUT_CHARS} characters of ${patch.length}]` : patch;
  return { ok: true, output: `A series of ${messages} patch(es), ${patch.length} bytes; the whole series: ${download}\n\n${shown}` };
}
