import { skillByName, type Queryable } from '@looplane/db';
import type { LoadedSkill, SkillPort, ToolRunner } from '@looplane/engine';
import type { Logger } from 'pino';

export interface TeamSkillsOptions {
  pool: Queryable;
  teamId: string;
  /** The session's tools: a skill's files go through `write_file`, as a model's own writes do. */
  tools: ToolRunner;
  log: Logger;
}

/**
 * The engine's skills port for one session: a team skill read from the library as it is now
 * (an archived one is no longer loadable), its files written into the session's workspace through
 * the worker's `write_file` (so they are committed and stored like any call's changes; the last
 * write's commit is the workspace after the load). Writing them again after a crash is harmless.
 * A file that cannot be written makes the load fail with the reason, so the model never relies on
 * a file that is not there.
 */
export function teamSkills(options: TeamSkillsOptions): SkillPort {
  return {
    async load({ callId, name }, callOptions) {
      const skill = await skillByName(options.pool, options.teamId, name);
      if (!skill || skill.archivedAt) return null;
      let commit: string | undefined;
      for (const [index, file] of skill.files.entries()) {
        const writeId = `${callId ?? 'preload'}:skill-file-${index}`;
        const result = await options.tools.run({ callId: writeId, name: 'write_file', args: { path: file.path, content: file.content } }, callOptions);
        if (!result.ok || result.held) {
          options.log.warn({ skill: name, path: file.path, output: result.output.slice(0, 300) }, 'a skill file could not be written');
          return { refused: `its file ${file.path} could not be written into the workspace: ${result.output.slice(0, 300)}` };
        }
        if (result.commit) commit = result.commit;
      }
      const loaded: LoadedSkill = {
        name: skill.name,
        version: skill.version,
        description: skill.description,
        instructions: skill.instructions,
        files: skill.files.map((f) => f.path),
        ...(commit ? { commit } : {}),
      };
      return loaded;
    },
  };
}
