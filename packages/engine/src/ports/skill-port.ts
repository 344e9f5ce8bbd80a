/** A team skill as the worker resolved it at load time; the `skill.loaded` event keeps all of it but the file contents. */
export interface LoadedSkill {
  name: string;
  version: number;
  description: string;
  instructions: string;
  /** Workspace paths of the files it wrote. */
  files: string[];
  /** The workspace commit after its files were written (absent: it has no files). */
  commit?: string;
}

/**
 * Resolves a team skill by name when the model loads it, writing its files into the session's
 * workspace. Null when the team has no such skill (any more); `refused` when it cannot be loaded
 * (a file could not be written), with the reason the model is told. Writing the files again is
 * harmless, so a crash between the write and the event only repeats it.
 */
export interface SkillPort {
  load(request: { callId: string | null; name: string }, options?: { signal?: AbortSignal }): Promise<LoadedSkill | { refused: string } | null>;
}
