import {
  appendAudit,
  insertSkill,
  listSkills as listSkillRows,
  skillById,
  skillByName,
  skillIndex,
  updateSkill as updateSkillRow,
  type AuditActor,
  type Db,
  type SkillPatch,
  type SkillRecord,
} from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { ArchiveSkillInput, CreateSkillInput, UpdateSkillInput } from '../routers/skills.schema';
import { agentSkillsSchema } from '../routers/agents.schema';
import type { RunSkills } from './run-config';
import { newId } from '@looplane/db';
import { queryableOf } from '@looplane/db';

/** A skill as the API shows it. */
export type SkillView = SkillRecord;

/** The team's skills by name (archived ones on request). */
export function listSkills(db: Db, teamId: string, archived: boolean): Promise<SkillView[]> {
  return listSkillRows(queryableOf(db), teamId, { archived });
}

/** One skill of the team, archived ones too. */
export async function getSkill(db: Db, teamId: string, skillId: string): Promise<SkillView> {
  const skill = await skillById(queryableOf(db), teamId, skillId);
  if (!skill) throw new AppError('NOT_FOUND', 'No such skill in this team');
  return skill;
}

/**
 * The live skills among `names`, in the order given; a name the team has no live skill for is a
 * BAD_REQUEST naming it (an agent's `skills`, checked when it is saved and when a run starts).
 */
export async function requireSkills(db: Db, teamId: string, names: readonly string[]): Promise<{ name: string; description: string }[]> {
  const unique = [...new Set(names)];
  if (unique.length !== names.length) throw new AppError('BAD_REQUEST', 'skills: a skill is listed twice');
  const found = await skillIndex(queryableOf(db), teamId, unique);
  const missing = unique.filter((name) => !found.some((s) => s.name === name));
  if (missing.length > 0) throw new AppError('BAD_REQUEST', `skills: the team has no skill named ${missing.join(', ')} (create it on the Skills page first)`);
  return unique.map((name) => found.find((s) => s.name === name)!);
}

/**
 * The skills a new run of an agent is offered: the agent's list as the library has it now (an
 * archived one is no longer offered), plus a slash command's skill, which must exist and is loaded
 * before the goal. No read at all for an agent without skills.
 */
export async function runSkillsOf(db: Db, teamId: string, agentSkills: unknown, commandSkill: string | undefined): Promise<RunSkills> {
  const parsed = agentSkillsSchema.safeParse(agentSkills);
  const names = parsed.success ? parsed.data : [];
  const wanted = commandSkill && !names.includes(commandSkill) ? [...names, commandSkill] : names;
  if (wanted.length === 0) return { offered: [], preload: [] };
  const found = await skillIndex(queryableOf(db), teamId, wanted);
  if (commandSkill && !found.some((s) => s.name === commandSkill)) {
    throw new AppError('BAD_REQUEST', `the command's skill ${commandSkill} is not in the team's skill library (or is archived)`);
  }
  const offered = wanted.flatMap((name) => found.filter((s) => s.name === name));
  return { offered, preload: commandSkill ? [commandSkill] : [] };
}

/** Creates a skill at version 1 with a `skill.created` audit row; a taken name (archived ones too) is a CONFLICT. */
export async function createSkill(
  db: Db,
  actor: AuditActor & { userId: string },
  teamId: string,
  input: CreateSkillInput,
  ip: string | null,
): Promise<SkillView> {
  return db.$transaction(async (tx) => {
    const skill = await insertSkill(queryableOf(tx), { id: newId(), teamId, ...input, createdById: actor.userId });
    if (!skill) throw new AppError('CONFLICT', `A skill named "${input.name}" already exists in this team (archived ones keep their names)`);
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'skill.created',
      targetType: 'skill',
      targetId: skill.id,
      data: { name: skill.name, files: skill.files.map((f) => f.path) },
    });
    return skill;
  });
}

async function change(
  db: Db,
  actor: AuditActor,
  teamId: string,
  ref: { skillId: string; expectedVersion?: number | undefined },
  patch: SkillPatch,
  action: 'skill.updated' | 'skill.archived' | 'skill.restored',
  ip: string | null,
): Promise<SkillView> {
  return db.$transaction(async (tx) => {
    const q = queryableOf(tx);
    const current = await skillById(q, teamId, ref.skillId);
    if (!current) throw new AppError('NOT_FOUND', 'No such skill in this team');
    if (ref.expectedVersion !== undefined && ref.expectedVersion !== current.version) {
      throw new AppError('CONFLICT', `The skill was changed meanwhile (now version ${current.version}); reload and try again`);
    }
    if (patch.name !== undefined && patch.name !== current.name) {
      const taken = await skillByName(q, teamId, patch.name);
      if (taken) throw new AppError('CONFLICT', `A skill named "${patch.name}" already exists in this team`);
    }
    const updated = await updateSkillRow(q, teamId, ref.skillId, current.version, patch);
    if (!updated) throw new AppError('CONFLICT', 'The skill was changed meanwhile; reload and try again');
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action,
      targetType: 'skill',
      targetId: updated.id,
      data: { name: updated.name, changed: Object.keys(patch), version: updated.version },
    });
    return updated;
  });
}

/**
 * Applies a partial update and bumps the version. Runs that loaded the skill keep the text they
 * loaded (it is in their log); runs load the new version from now on.
 */
export function updateSkill(db: Db, actor: AuditActor, teamId: string, input: UpdateSkillInput, ip: string | null): Promise<SkillView> {
  const { skillId, expectedVersion, ...fields } = input;
  const patch = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as SkillPatch;
  if (Object.keys(patch).length === 0) return getSkill(db, teamId, skillId);
  return change(db, actor, teamId, { skillId, expectedVersion }, patch, 'skill.updated', ip);
}

/** Archives a skill (no run is offered it from then on) or brings it back; a new version either way. */
export function archiveSkill(db: Db, actor: AuditActor, teamId: string, input: ArchiveSkillInput, ip: string | null): Promise<SkillView> {
  return change(db, actor, teamId, input, { archived: input.archived }, input.archived ? 'skill.archived' : 'skill.restored', ip);
}
