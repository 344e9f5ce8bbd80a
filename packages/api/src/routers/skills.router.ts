import { createRouter, teamProcedure } from '../trpc';
import { archiveSkill, createSkill, getSkill, listSkills, updateSkill } from '../services/skills.service';
import { archiveSkillInput, createSkillInput, listSkillsInput, skillRefInput, updateSkillInput } from './skills.schema';

/**
 * The team skill library: instructions (and small text files) an agent loads on demand with
 * `load_skill`. Reading is every member's; writing is for whoever may edit agents (operators up),
 * since a skill is part of what an agent does.
 */
export const skillsRouter = createRouter({
  list: teamProcedure('viewer')
    .input(listSkillsInput)
    .query(({ ctx, input }) => listSkills(ctx.db, ctx.teamId, input.archived)),

  get: teamProcedure('viewer')
    .input(skillRefInput)
    .query(({ ctx, input }) => getSkill(ctx.db, ctx.teamId, input.skillId)),

  create: teamProcedure('operator')
    .input(createSkillInput)
    .mutation(({ ctx, input }) => createSkill(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  update: teamProcedure('operator')
    .input(updateSkillInput)
    .mutation(({ ctx, input }) => updateSkill(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),

  archive: teamProcedure('operator')
    .input(archiveSkillInput)
    .mutation(({ ctx, input }) => archiveSkill(ctx.db, ctx.actor, ctx.teamId, input, ctx.ip)),
});
