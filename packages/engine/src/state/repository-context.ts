import type { RepositoryContext, WorkspaceSeed } from '../events/workspace-seeded';
import { oneLine } from '../config/tool-spec';
import { LOAD_SKILL } from '../skills/skill-schemas';

/** Where the files came from, in words the model can act on. */
function seedLine(seed: WorkspaceSeed): string {
  if (seed.source === 'git') {
    const at = seed.ref ?? seed.branch ?? 'its default branch';
    return `The workspace holds the repository ${seed.url} at ${at}${seed.revision ? ` (commit ${seed.revision.slice(0, 12)})` : ''}.`;
  }
  if (seed.source === 'archive') return `The workspace holds the files of the uploaded archive ${seed.filename ?? seed.uploadId ?? ''}.`.replace(' .', '.');
  return `The workspace holds the files of session ${seed.fromSession?.sessionId ?? ''} as they were at its event #${seed.fromSession?.atEvent ?? 0}.`;
}

/**
 * The pinned context item that follows the system prompt in a seeded session: where its files came
 * from and, when the repository has one, its `AGENTS.md` (the instructions coding agents read from
 * a repository's root), marked as the repository's text rather than the operator's, and the index
 * of its skills (names and one-liners; `load_skill` brings the rest). Null for a session that
 * started empty.
 */
export function repositoryText(seed: WorkspaceSeed | null, repository: RepositoryContext | undefined): string | null {
  if (!seed && !repository) return null;
  const lines: string[] = [];
  if (seed) lines.push(`${seedLine(seed)} ${seed.files} files, ${seed.bytes} bytes.`);
  if (repository?.agentsMd) {
    const cut = repository.agentsMd.truncated ? ` (cut at ${repository.agentsMd.text.length} characters of ${repository.agentsMd.bytes} bytes)` : '';
    lines.push(`The repository's AGENTS.md${cut}, its maintainers' instructions for working in it, follows between the markers.`);
    lines.push('<<<AGENTS.md', repository.agentsMd.text, 'AGENTS.md>>>');
  }
  if (repository?.skills?.length) {
    lines.push(`The repository offers skills (its .looplane/skills). Call ${LOAD_SKILL} with a name to read one's instructions:`);
    for (const skill of repository.skills) lines.push(`- ${skill.name}: ${oneLine(skill.description)}`);
  }
  return lines.join('\n');
}
