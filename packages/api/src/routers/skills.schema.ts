import { skillDescriptionSchema, skillFilesSchema, skillInstructionsSchema, skillNameSchema } from '@looplane/engine';
import { z } from 'zod';
import { idSchema } from '../schemas';

export const skillRefInput = z.object({ skillId: idSchema });

export const listSkillsInput = z.object({ archived: z.boolean().default(false) }).prefault({});

export const createSkillInput = z.object({
  name: skillNameSchema,
  description: skillDescriptionSchema,
  instructions: skillInstructionsSchema,
  files: skillFilesSchema.default([]),
});
export type CreateSkillInput = z.infer<typeof createSkillInput>;

/** A partial update; `expectedVersion` makes it a compare-and-set against a concurrent edit. */
export const updateSkillInput = z.object({
  skillId: idSchema,
  expectedVersion: z.int().min(1).max(1_000_000_000).optional(),
  name: skillNameSchema.optional(),
  description: skillDescriptionSchema.optional(),
  instructions: skillInstructionsSchema.optional(),
  files: skillFilesSchema.optional(),
});
export type UpdateSkillInput = z.infer<typeof updateSkillInput>;

/** Archives a skill (runs stop being offered it; logs that loaded it keep its text), or brings it back. */
export const archiveSkillInput = skillRefInput.extend({ archived: z.boolean().default(true) });
export type ArchiveSkillInput = z.infer<typeof archiveSkillInput>;
