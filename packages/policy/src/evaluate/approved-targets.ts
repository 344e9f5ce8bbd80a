import { lostBytesOf, type FileChange } from '../document/effect-schema';
import { DEFAULT_WORKSPACE_ROOT, normalizeAbsolute, resolvePath } from '../workspace-paths';
import type { PreparedCall } from './prepare-call';

/**
 * The workspace paths an approver saw a call name: a file tool's `path`; for a shell line, every
 * static word that is not an option and every static redirection target, resolved from the call's
 * working directory. `null` means "the whole workspace" (a word names the root), `[]` that the line
 * names no workspace path at all.
 */
export function approvedTargets(prepared: PreparedCall, workspaceRoot = DEFAULT_WORKSPACE_ROOT): string[] | null {
  const root = normalizeAbsolute(workspaceRoot);
  const args = prepared.call.args ?? {};
  const cwd = typeof args.cwd === 'string' ? resolvePath(args.cwd, root, root).absolute : root;
  const words: string[] = [];
  if (prepared.path?.ok && prepared.path.relative !== null) return prepared.path.relative === '' ? null : [prepared.path.relative];
  if (prepared.shell) {
    for (const command of prepared.shell.commands) words.push(...command.argv.slice(1).filter((word) => !word.startsWith('-')));
    for (const redirect of prepared.shell.redirects) if (redirect.target !== null) words.push(redirect.target);
  }
  const targets = new Set<string>();
  for (const word of words) {
    const resolved = resolvePath(word, cwd, root);
    if (resolved.relative === null) continue;
    // `build/` and `build/.` name the same directory.
    const relative = resolved.relative.replace(/\/+$/, '');
    if (relative === '') return null;
    targets.add(relative);
  }
  return [...targets];
}

/** A change is inside a target when its path (or, for a move, its old path) is the target or lies under it. */
function inside(path: string, targets: readonly string[]): boolean {
  return targets.some((target) => path === target || path.startsWith(`${target}/`));
}

/**
 * What an approved call did beyond what the approver was shown: every change that lost earlier
 * content at a path its command does not name. A symlink planted earlier (`ln -s . build`, then an
 * approved `rm -rf build/`) makes the deletions land outside `build`, so they show up here.
 */
export function beyondApproval(changes: readonly FileChange[], targets: readonly string[] | null): FileChange[] {
  if (targets === null) return [];
  return changes.filter((change) => {
    const lossy = lostBytesOf(change) > 0 || change.kind === 'deleted' || change.kind === 'type_changed';
    return lossy && !inside(change.path, targets) && !(change.from !== undefined && inside(change.from, targets));
  });
}
