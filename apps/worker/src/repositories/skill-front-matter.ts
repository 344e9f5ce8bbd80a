import { skillDescriptionSchema, skillInstructionsSchema, skillNameSchema } from '@looplane/engine';

/** A `SKILL.md` read: its front matter's name and description, its body as the instructions. */
export interface ParsedSkillMd {
  name: string;
  description: string;
  instructions: string;
}

/** One `key: value` line; a value may be wrapped in matching single or double quotes. */
function unquoted(raw: string): string {
  const value = raw.trim();
  const quoted = /^(["'])(.*)\1$/.exec(value);
  return quoted ? (quoted[2] ?? '') : value;
}

/**
 * Parses a `SKILL.md`: a front matter block (`---` lines around `key: value` lines) holding at
 * least `name` and `description`, then the Markdown body. Deliberately small and strict: one line
 * per key, no nesting or multi-line values; other keys are ignored (other tools' SKILL.md files
 * carry more). Returns the reason instead when the file is not a usable skill.
 */
export function parseSkillMd(text: string): ParsedSkillMd | { problem: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { problem: 'it does not start with a --- front matter line' };
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (end < 0) return { problem: 'its front matter has no closing --- line' };
  const fields = new Map<string, string>();
  for (const line of lines.slice(1, end)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^([A-Za-z][A-Za-z0-9_-]*):(.*)$/.exec(line);
    if (!match) return { problem: `its front matter line "${line.slice(0, 60)}" is not key: value` };
    const key = match[1]!;
    if (fields.has(key)) return { problem: `its front matter names ${key} twice` };
    fields.set(key, unquoted(match[2] ?? ''));
  }
  const name = skillNameSchema.safeParse(fields.get('name') ?? '');
  if (!name.success) return { problem: `name: ${name.error.issues[0]?.message ?? 'missing'}` };
  const description = skillDescriptionSchema.safeParse(fields.get('description') ?? '');
  if (!description.success) return { problem: `description: ${description.error.issues[0]?.message ?? 'missing'}` };
  const body = lines
    .slice(end + 1)
    .join('\n')
    .trim();
  const instructions = skillInstructionsSchema.safeParse(body);
  if (!instructions.success) return { problem: `instructions: ${instructions.error.issues[0]?.message ?? 'missing'}` };
  return { name: name.data, description: description.data, instructions: instructions.data };
}
