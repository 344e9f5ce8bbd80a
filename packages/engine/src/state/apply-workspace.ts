import { pushExternalMessage } from './context';
import type { HandlerGroup } from './handlers';

/** How the model is told its files changed under it: which files, and from when. */
function restoredNotice(atEvent: number, paths: readonly string[] | undefined): string {
  const what = paths
    ? `These workspace paths were put back as they were at event #${atEvent}: ${paths.join(', ')}`
    : `The workspace was put back as it was at event #${atEvent}`;
  return `${what} (restored by a person). Files changed since then are as they were at that event; read them again before relying on them.`;
}

/**
 * A restore (`workspace.restored`) changes no status: a running branch goes on from the restored
 * files, a finished one stays finished. The model learns of it through a pinned notice, as it
 * learns of an operator's notice, so its next turn does not trust what it read before.
 */
export const workspaceHandlers: HandlerGroup<'workspace.seeded' | 'workspace.restored'> = {
  // Before `run.started`: the run's context says where the files came from when it starts.
  'workspace.seeded': (state, p) => {
    state.seed = p;
  },
  'workspace.restored': (state, p) => {
    pushExternalMessage(state, 'notice', { role: 'system', content: restoredNotice(p.atEvent, p.paths) });
  },
};
