import { z } from 'zod';

/** The engine answers this tool itself: the model names a skill, its instructions enter the context. */
export const LOAD_SKILL = 'load_skill';

/** Most bytes of a skill's instructions, and of each of its files. */
export const SKILL_TEXT_MAX_BYTES = 64 * 1024;
/** Most files a skill may carry. */
export const SKILL_MAX_FILES = 20;

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** A skill's name: what `load_skill` and an agent's `skills` list take (lowercase, digits, `-`, `_`). */
export const skillNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/, 'skill names are lowercase letters, digits, - and _ (at most 64)');

/** The one line the model sees before it loads the skill. */
export const skillDescriptionSchema = z
  .string()
  .trim()
  .min(1, 'a skill needs a one-line description')
  .max(200)
  .refine((text) => !/[\r\n]/.test(text), 'the description must be one line');

/** Markdown instructions, at most 64 KB of UTF-8. */
export const skillInstructionsSchema = z
  .string()
  .min(1, 'a skill needs instructions')
  .refine((text) => utf8Bytes(text) <= SKILL_TEXT_MAX_BYTES, `instructions are at most ${SKILL_TEXT_MAX_BYTES} bytes`);

/**
 * A path inside the workspace: relative, `/`-separated, no `.` or `..` segment, nothing under a
 * `.git` directory, no NUL or backslash. What a loaded skill's file is written to.
 */
export const skillFilePathSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((path) => !path.startsWith('/') && !/^[A-Za-z]:/.test(path), 'file paths must be relative')
  .refine((path) => !/[\\\0]/.test(path), 'file paths may not hold a backslash or NUL')
  .refine((path) => path.split('/').every((part) => part !== '' && part !== '.' && part !== '..'), 'file paths may not hold empty, . or .. segments')
  .refine((path) => !path.split('/').some((part) => part.toLowerCase() === '.git'), 'file paths may not reach into .git');

const skillFileSchema = z.strictObject({
  path: skillFilePathSchema,
  content: z.string().refine((text) => utf8Bytes(text) <= SKILL_TEXT_MAX_BYTES, `each file is at most ${SKILL_TEXT_MAX_BYTES} bytes`),
});
export type SkillFile = z.output<typeof skillFileSchema>;

export const skillFilesSchema = z
  .array(skillFileSchema)
  .max(SKILL_MAX_FILES, `a skill carries at most ${SKILL_MAX_FILES} files`)
  .superRefine((files, ctx) => {
    const seen = new Set<string>();
    for (const file of files) {
      if (seen.has(file.path)) ctx.addIssue({ code: 'custom', message: `file ${file.path} is listed twice` });
      seen.add(file.path);
    }
  });

/** What the model is offered before loading: a skill's name and its one line (run config `skills`). */
export const skillIndexEntrySchema = z.object({ name: skillNameSchema, description: z.string().max(200) });
export type SkillIndexEntry = z.output<typeof skillIndexEntrySchema>;

/**
 * A seeded repository's skill (`.looplane/skills/<dir>/SKILL.md`), recorded in `run.started` with
 * its instructions: its files are already in the workspace (`files` names them), so loading it
 * needs nothing but the log.
 */
export const repositorySkillSchema = z.object({
  name: skillNameSchema,
  description: z.string().max(200),
  dir: z.string().min(1),
  instructions: z.string(),
  files: z.array(z.string()).default([]),
});
export type RepositorySkill = z.output<typeof repositorySkillSchema>;
