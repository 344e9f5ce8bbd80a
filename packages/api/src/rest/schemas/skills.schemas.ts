import { z } from 'zod';
import { archiveSkillInput, createSkillInput, updateSkillInput } from '../../routers/skills.schema';
import { id, timestamp } from './common.schemas';

export const skillIdParams = z.strictObject({ skillId: id });

export const listSkillsQuery = z
  .strictObject({
    archived: z
      .enum(['true', 'false'])
      .optional()
      .transform((value) => value === 'true')
      .meta({ description: 'true: archived skills too' }),
  })
  .meta({ id: 'ListSkillsQuery' });

/** `POST /skills`. */
export const createSkillBody = createSkillInput.strict().meta({ id: 'CreateSkillRequest' });

/** `PATCH /skills/{skillId}`: the fields to change; `expectedVersion` makes it a compare-and-set. */
export const updateSkillBody = updateSkillInput.omit({ skillId: true }).strict().meta({ id: 'UpdateSkillRequest' });

/** `POST /skills/{skillId}/archive`: archive (default) or, with `archived: false`, restore. */
export const archiveSkillBody = archiveSkillInput.omit({ skillId: true }).strict().meta({ id: 'ArchiveSkillRequest' });

export const skill = z
  .strictObject({
    id,
    teamId: id,
    name: z.string(),
    description: z.string().meta({ description: 'The one line the model sees before it loads the skill' }),
    instructions: z.string().meta({ description: 'Markdown, added to the context when the model loads the skill' }),
    files: z.array(z.strictObject({ path: z.string(), content: z.string() })).meta({ description: 'Text files written into the workspace when it is loaded' }),
    version: z.int().meta({ description: 'Bumped by every change' }),
    createdById: id.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    archivedAt: timestamp.nullable(),
  })
  .meta({ id: 'Skill' });

export const skillList = z.array(skill).meta({ id: 'SkillList', description: 'The team’s skills, by name' });
