import { AppError } from '@looplane/shared';
import { z } from 'zod';
import { skillNameSchema } from '../skills/skill-schemas';

const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g;

const slashCommandArgSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'argument names are lowercase letters, digits and _'),
  required: z.boolean().default(false),
  description: z.string().default(''),
});

/**
 * A slash command of an agent template (`AgentTemplate.slashCommands`): `/fix-tests src/a.test.ts`
 * expands `goalTemplate` with `{{arg}}` placeholders into the run's goal. `skill` names a team
 * skill loaded before the goal is worked on (its instructions join the context before the first
 * model call).
 */
export const slashCommandSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'command names are lowercase letters, digits and -'),
    description: z.string().default(''),
    goalTemplate: z.string().min(1),
    args: z.array(slashCommandArgSchema).default([]),
    skill: skillNameSchema.optional(),
  })
  .superRefine((command, ctx) => {
    const names = command.args.map((a) => a.name);
    if (new Set(names).size !== names.length) ctx.addIssue({ code: 'custom', message: `/${command.name} declares an argument twice` });
    // Positional filling is only unambiguous when every required argument comes first.
    const firstOptional = command.args.findIndex((a) => !a.required);
    if (firstOptional >= 0 && command.args.slice(firstOptional).some((a) => a.required)) {
      ctx.addIssue({ code: 'custom', message: `/${command.name}: required arguments must come before optional ones` });
    }
    for (const match of command.goalTemplate.matchAll(PLACEHOLDER)) {
      if (!names.includes(match[1] ?? '')) {
        ctx.addIssue({ code: 'custom', message: `/${command.name}: template uses {{${match[1]}}} but declares no such argument` });
      }
    }
  });
export type SlashCommand = z.output<typeof slashCommandSchema>;

export const slashCommandsSchema = z.array(slashCommandSchema).superRefine((commands, ctx) => {
  const seen = new Set<string>();
  for (const command of commands) {
    if (seen.has(command.name)) ctx.addIssue({ code: 'custom', message: `/${command.name} is defined twice` });
    seen.add(command.name);
  }
});

export interface ExpandedCommand {
  goal: string;
  command: { name: string; args: Record<string, string> };
  /** The skill the command loads before the goal, when it names one. */
  skill?: string;
}

interface Token {
  value: string;
  start: number;
}

/** Splits on whitespace; "double" or 'single' quotes group words, backslash escapes inside quotes. */
function tokenize(text: string, offset: number): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
    if (i >= text.length) break;
    const start = i;
    let value = '';
    let quote: string | null = null;
    for (; i < text.length; i++) {
      const ch = text[i] ?? '';
      if (quote) {
        if (ch === '\\' && i + 1 < text.length) value += text[++i];
        else if (ch === quote) quote = null;
        else value += ch;
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (/\s/.test(ch)) break;
      else value += ch;
    }
    tokens.push({ value, start: start + offset });
  }
  return tokens;
}

/** `/name <required> [optional]` — the usage line shown in errors and menus. */
export function slashCommandUsage(command: SlashCommand): string {
  const args = command.args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
  return [`/${command.name}`, ...args].join(' ');
}

/**
 * Expands `/name args…` into a goal. Arguments are positional in declaration order or `name=value`;
 * the last positional argument takes the rest of the line. Mistakes are BAD_REQUEST with the usage.
 */
export function expandSlashCommand(input: string, commands: readonly SlashCommand[]): ExpandedCommand {
  const match = /^\s*\/([a-z][a-z0-9-]*)(?=\s|$)/.exec(input);
  if (!match) throw new AppError('BAD_REQUEST', 'expected a slash command such as /name, at the start of the input');
  const name = match[1] ?? '';
  const command = commands.find((c) => c.name === name);
  if (!command) {
    const available = commands.map((c) => `/${c.name}`).join(', ') || 'none';
    throw new AppError('BAD_REQUEST', `unknown command /${name}; available: ${available}`);
  }
  const restStart = match[0].length;
  const tokens = tokenize(input.slice(restStart), restStart);
  const values: Record<string, string> = {};
  const positional: Token[] = [];
  for (const token of tokens) {
    const named = /^([a-z][a-z0-9_]*)=(.*)$/s.exec(token.value);
    if (named && command.args.some((a) => a.name === named[1])) values[named[1] ?? ''] = named[2] ?? '';
    else positional.push(token);
  }
  const open = command.args.filter((a) => values[a.name] === undefined);
  if (positional.length > 0 && open.length === 0) {
    throw new AppError('BAD_REQUEST', `too many arguments for ${slashCommandUsage(command)}`);
  }
  open.forEach((arg, index) => {
    const token = positional[index];
    if (!token) return;
    const isLast = index === open.length - 1;
    // The last open argument takes the raw remainder so free text keeps its spacing.
    values[arg.name] = isLast && positional.length > open.length ? input.slice(token.start).trim() : token.value;
  });
  for (const arg of command.args) {
    if (arg.required && !values[arg.name]) {
      const what = arg.description ? ` (${arg.description})` : '';
      throw new AppError('BAD_REQUEST', `/${command.name} needs <${arg.name}>${what}; usage: ${slashCommandUsage(command)}`);
    }
  }
  const goal = command.goalTemplate.replace(PLACEHOLDER, (_, key: string) => values[key] ?? '').trim();
  return { goal, command: { name: command.name, args: values }, ...(command.skill ? { skill: command.skill } : {}) };
}
