import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SKILL_MAX_FILES, SKILL_TEXT_MAX_BYTES, type RepositoryContext, type RepositorySkill } from '@looplane/engine';
import { agentsMdOf } from './tree-stats';
import { parseSkillMd } from './skill-front-matter';

/** Where a repository keeps its skills: one directory per skill, each with a `SKILL.md`. */
const SKILLS_DIR = '.looplane/skills';
/** Most skills a repository offers a run (the rest are left out, by directory name). */
const MAX_SKILLS = 50;

/** Regular files below `dir` (links not followed), relative to it, sorted; at most `max` + 1. */
async function filesBelow(dir: string, max: number, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length > max) break;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== '.git') out.push(...(await filesBelow(dir, max - out.length, path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * The seeded repository's skills (`.looplane/skills/<dir>/SKILL.md`): name and description from
 * the front matter, the body as the instructions, the directory's other files named (they are in
 * the workspace already). A directory whose SKILL.md is unusable, too large or has more than
 * {@link SKILL_MAX_FILES} other files is left out, as is a second skill of the same name.
 */
async function repositorySkillsOf(workTree: string): Promise<RepositorySkill[]> {
  const root = join(workTree, SKILLS_DIR);
  if (!(await lstat(root).catch(() => null))?.isDirectory()) return [];
  const skills: RepositorySkill[] = [];
  const dirs = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  for (const dirName of dirs.sort()) {
    if (skills.length >= MAX_SKILLS) break;
    const dir = join(root, dirName);
    const skillMd = join(dir, 'SKILL.md');
    const stats = await lstat(skillMd).catch(() => null);
    if (!stats?.isFile() || stats.size > SKILL_TEXT_MAX_BYTES + 4096) continue;
    const parsed = parseSkillMd(await readFile(skillMd, 'utf8'));
    if ('problem' in parsed || skills.some((s) => s.name === parsed.name)) continue;
    const files = (await filesBelow(dir, SKILL_MAX_FILES + 1)).filter((f) => f !== 'SKILL.md');
    if (files.length > SKILL_MAX_FILES) continue;
    skills.push({ ...parsed, dir: `${SKILLS_DIR}/${dirName}`, files });
  }
  return skills;
}

/** What `run.started.repository` says of a seeded tree: its `AGENTS.md` and its skills; undefined when it has neither. */
export async function repositoryContextOf(workTree: string): Promise<RepositoryContext | undefined> {
  const [agents, skills] = await Promise.all([agentsMdOf(workTree), repositorySkillsOf(workTree)]);
  if (!agents && skills.length === 0) return undefined;
  return { ...agents, ...(skills.length > 0 ? { skills } : {}) };
}
