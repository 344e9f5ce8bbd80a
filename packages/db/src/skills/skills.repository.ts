import { z } from 'zod';
import type { Queryable } from '../runs/pg-pool';
import { namedQuery, param, rowsOf } from '../sql/named-query';

/**
 * The team skill library (`Skill`): instructions (and small text files) an agent loads on demand.
 * Names are unique in a team, archived ones included (an archived name stays taken, so a loaded
 * skill's name in an old log never means another skill). Every change bumps `version`, compared
 * and set in one statement so two concurrent edits cannot both win. Timestamps are read back as
 * epoch milliseconds so node-postgres and Prisma's raw queries give the same numbers.
 */

/** A file a skill puts into the workspace when it is loaded. */
export interface SkillFileRecord {
  path: string;
  content: string;
}

export interface SkillRecord {
  id: string;
  teamId: string;
  name: string;
  description: string;
  instructions: string;
  files: SkillFileRecord[];
  version: number;
  createdById: string | null;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
}

/** A skill's name and one line: what an agent's run is offered before loading it. */
export interface SkillIndexRecord {
  name: string;
  description: string;
}

const epoch = z.number().transform((ms) => new Date(ms));
// Files were validated on the way in; a row edited by hand degrades to "no files" rather than failing a read.
const filesSchema = z.array(z.object({ path: z.string(), content: z.string() })).catch([]);
const recordSchema = z
  .object({
    id: z.string(),
    teamId: z.string(),
    name: z.string(),
    description: z.string(),
    instructions: z.string(),
    files: z.unknown(),
    version: z.number(),
    createdById: z.string().nullable(),
    createdAtMs: epoch,
    updatedAtMs: epoch,
    archivedAtMs: epoch.nullable(),
  })
  .transform(({ createdAtMs, updatedAtMs, archivedAtMs, files, ...row }) => ({
    ...row,
    files: filesSchema.parse(typeof files === 'string' ? JSON.parse(files) : files),
    createdAt: createdAtMs,
    updatedAt: updatedAtMs,
    archivedAt: archivedAtMs,
  }));

const NOW = `(statement_timestamp() AT TIME ZONE 'UTC')`;
const COLUMNS = `
  id, "teamId", name, description, instructions, files, version, "createdById",
  (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAtMs",
  (extract(epoch FROM "updatedAt") * 1000)::float8 AS "updatedAtMs",
  (extract(epoch FROM "archivedAt") * 1000)::float8 AS "archivedAtMs"`;

const parse = (rows: unknown[]): SkillRecord[] => rows.map((row) => recordSchema.parse(row));

const LIST_SQL = namedQuery({
  name: 'looplane_skill_list_v1',
  params: { team_id: param.text, archived: param.boolean },
  text: `SELECT ${COLUMNS} FROM "Skill" WHERE "teamId" = :team_id AND (:archived OR "archivedAt" IS NULL) ORDER BY name LIMIT 1000`,
});

/** The team's skills by name; archived ones only when asked for. */
export async function listSkills(db: Queryable, teamId: string, options: { archived?: boolean } = {}): Promise<SkillRecord[]> {
  return parse((await db.query(LIST_SQL.bind({ team_id: teamId, archived: options.archived ?? false }))).rows);
}

const BY_ID_SQL = namedQuery({
  name: 'looplane_skill_by_id_v1',
  params: { team_id: param.text, skill_id: param.text },
  text: `SELECT ${COLUMNS} FROM "Skill" WHERE id = :skill_id AND "teamId" = :team_id`,
});

/** One skill of the team (archived too); null when it is none of the team's. */
export async function skillById(db: Queryable, teamId: string, skillId: string): Promise<SkillRecord | null> {
  return parse((await db.query(BY_ID_SQL.bind({ team_id: teamId, skill_id: skillId }))).rows)[0] ?? null;
}

const BY_NAME_SQL = namedQuery({
  name: 'looplane_skill_by_name_v1',
  params: { team_id: param.text, name: param.text },
  text: `SELECT ${COLUMNS} FROM "Skill" WHERE "teamId" = :team_id AND name = :name`,
});

/** A skill of the team by name, archived or not (a name stays taken once used); null when none has it. */
export async function skillByName(db: Queryable, teamId: string, name: string): Promise<SkillRecord | null> {
  return parse((await db.query(BY_NAME_SQL.bind({ team_id: teamId, name }))).rows)[0] ?? null;
}

const INDEX_SQL = namedQuery({
  name: 'looplane_skill_index_v1',
  params: { team_id: param.text, names: param.jsonb },
  text: `
SELECT name, description FROM "Skill"
WHERE "teamId" = :team_id AND "archivedAt" IS NULL AND name IN (SELECT jsonb_array_elements_text(:names))
ORDER BY name`,
}).returns<SkillIndexRecord>();

/** Names and one-liners of the team's live skills among `names` (a name missing from the answer is unknown or archived). */
export async function skillIndex(db: Queryable, teamId: string, names: readonly string[]): Promise<SkillIndexRecord[]> {
  if (names.length === 0) return [];
  return rowsOf(INDEX_SQL, await db.query(INDEX_SQL.bind({ team_id: teamId, names: JSON.stringify(names) })));
}

/** A new skill, checked by the caller. */
export interface NewSkill {
  /** A cuid, made by the caller (the API's id generator). */
  id: string;
  teamId: string;
  name: string;
  description: string;
  instructions: string;
  files: SkillFileRecord[];
  createdById: string | null;
}

const INSERT_SQL = namedQuery({
  name: 'looplane_skill_insert_v1',
  params: {
    id: param.text,
    team_id: param.text,
    name: param.text,
    description: param.text,
    instructions: param.text,
    files: param.jsonb,
    created_by_id: param.nullableText,
  },
  text: `
INSERT INTO "Skill" (id, "teamId", name, description, instructions, files, version, "createdById", "createdAt", "updatedAt")
VALUES (:id, :team_id, :name, :description, :instructions, :files, 1, :created_by_id, ${NOW}, ${NOW})
ON CONFLICT ("teamId", name) DO NOTHING
RETURNING ${COLUMNS}`,
});

/** Stores a new skill at version 1; null (and nothing stored) when the team already has one of that name. */
export async function insertSkill(db: Queryable, skill: NewSkill): Promise<SkillRecord | null> {
  const query = INSERT_SQL.bind({
    id: skill.id,
    team_id: skill.teamId,
    name: skill.name,
    description: skill.description,
    instructions: skill.instructions,
    files: JSON.stringify(skill.files),
    created_by_id: skill.createdById,
  });
  return parse((await db.query(query)).rows)[0] ?? null;
}

/** A change of a skill: the fields given replace the stored ones. */
export interface SkillPatch {
  name?: string;
  description?: string;
  instructions?: string;
  files?: SkillFileRecord[];
  /** true archives it, false brings it back. */
  archived?: boolean;
}

const UPDATE_SQL = namedQuery({
  name: 'looplane_skill_update_v1',
  params: {
    team_id: param.text,
    skill_id: param.text,
    version: param.int,
    name: param.nullableText,
    description: param.nullableText,
    instructions: param.nullableText,
    files: param.nullableJsonb,
    archive: param.nullableText,
  },
  text: `
UPDATE "Skill" SET
  name = COALESCE(:name, name),
  description = COALESCE(:description, description),
  instructions = COALESCE(:instructions, instructions),
  files = COALESCE(:files, files),
  "archivedAt" = CASE :archive WHEN 'archive' THEN COALESCE("archivedAt", ${NOW}) WHEN 'restore' THEN NULL ELSE "archivedAt" END,
  version = version + 1,
  "updatedAt" = ${NOW}
WHERE id = :skill_id AND "teamId" = :team_id AND version = :version
RETURNING ${COLUMNS}`,
});

/**
 * Applies `patch` if the skill is still at `version` (compare-and-set) and bumps the version; null
 * when it is not (changed meanwhile, or none of the team's). A name another skill of the team
 * holds violates `Skill_teamId_name_key` (the caller checks first and maps a race to a conflict).
 */
export async function updateSkill(db: Queryable, teamId: string, skillId: string, version: number, patch: SkillPatch): Promise<SkillRecord | null> {
  const query = UPDATE_SQL.bind({
    team_id: teamId,
    skill_id: skillId,
    version,
    name: patch.name ?? null,
    description: patch.description ?? null,
    instructions: patch.instructions ?? null,
    files: patch.files ? JSON.stringify(patch.files) : null,
    archive: patch.archived === undefined ? null : patch.archived ? 'archive' : 'restore',
  });
  return parse((await db.query(query)).rows)[0] ?? null;
}
