import type { StepContext } from './step-context';

/** What the model is told when the skill cannot be had; a preload that fails ends the run instead. */
async function refuse(ctx: StepContext, callId: string | null, name: string, reason: string): Promise<void> {
  if (callId) return ctx.emit([ctx.event('tool.rejected', { callId, reason })]);
  await ctx.emit([ctx.event('run.finished', { status: 'failed', error: `the skill ${name} could not be loaded before the goal: ${reason}` })]);
}

/**
 * Loads a skill: a seeded repository's from the log (`run.started`; its files are already in the
 * workspace), a team skill through the skills port, which reads it as it is now and writes its
 * files. `skill.loaded` keeps the content, so nothing is resolved again on a replay or a fork.
 * No policy check: instructions are text the team (or the repository) wrote for the model, and the
 * files land in the workspace the model's own tools write to.
 */
export async function loadSkill(ctx: StepContext, callId: string | null, name: string): Promise<void> {
  const call = callId ? { callId } : {};
  const local = ctx.state.repositorySkills.find((s) => s.name === name);
  if (local) {
    const files = local.files.map((file) => `${local.dir}/${file}`);
    const payload = { ...call, name, source: 'repository' as const, version: 1, description: local.description, instructions: local.instructions, files };
    return ctx.emit([ctx.event('skill.loaded', payload)]);
  }
  const port = ctx.ports.skills;
  if (!port) return refuse(ctx, callId, name, 'this worker cannot load team skills');
  const skill = await port.load({ callId, name }, { signal: ctx.signal });
  if (!skill) return refuse(ctx, callId, name, `the team has no skill named ${name} any more`);
  if ('refused' in skill) return refuse(ctx, callId, name, skill.refused);
  await ctx.emit([
    ctx.event('skill.loaded', {
      ...call,
      name,
      source: 'team',
      version: skill.version,
      description: skill.description,
      instructions: skill.instructions,
      files: skill.files,
      ...(skill.commit ? { commit: skill.commit } : {}),
    }),
  ]);
}

/** A second `load_skill` of the same skill: nothing is added, the model is told it has it already. */
export async function skillAlreadyLoaded(ctx: StepContext, callId: string, name: string): Promise<void> {
  await ctx.emit([
    ctx.event('tool.finished', { callId, ok: true, output: `Skill ${name} is already loaded; its instructions are in the context.`, truncated: false }),
  ]);
}
