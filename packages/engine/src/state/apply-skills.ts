import { pushExternalMessage, pushToolResult } from './context';
import type { HandlerGroup } from './handlers';
import type { RunState } from './run-state';

/** The pinned notice that carries a skill's instructions (pinned: compaction never removes it). */
function skillNotice(p: { name: string; version: number; instructions: string; files: readonly string[] }): string {
  const files = p.files.length > 0 ? `\nIts files are in the workspace: ${p.files.join(', ')}.` : '';
  return `Skill ${p.name} (version ${p.version}) is loaded. Follow its instructions, between the markers, when they apply.${files}\n<<<SKILL ${p.name}\n${p.instructions}\nSKILL ${p.name}>>>`;
}

/** Whether a skill is offered to this run: the config's, or the seeded repository's. */
export function skillOffered(state: RunState, name: string): boolean {
  return (state.config?.skills ?? []).some((s) => s.name === name) || state.repositorySkills.some((s) => s.name === name);
}

/**
 * `skill.loaded`: the model's call (when there was one) is answered, and the instructions join the
 * context as a pinned notice after the turn's results, so replay, forks and compaction keep them.
 */
export const skillHandlers: HandlerGroup<'skill.loaded'> = {
  'skill.loaded': (state, p) => {
    if (p.replayed && state.replay && p.callId) delete state.replay.serving[p.callId];
    if (!state.loadedSkills.includes(p.name)) state.loadedSkills.push(p.name);
    if (p.callId) {
      const call = state.calls.find((c) => c.id === p.callId);
      if (call) call.status = 'loaded';
      pushToolResult(state, p.callId, `Loaded skill ${p.name}; its instructions follow.`);
    }
    pushExternalMessage(state, 'notice', { role: 'system', content: skillNotice(p) });
  },
};
