import { describe, expect, it } from 'vitest';
import { parseRunConfig } from './run-config';
import { expandSlashCommand, slashCommandsSchema, slashCommandUsage, type SlashCommand } from './slash-commands';

const commands: SlashCommand[] = slashCommandsSchema.parse([
  {
    name: 'fix-tests',
    description: 'Make failing tests pass',
    goalTemplate: 'Make the tests in {{path}} pass. {{note}}',
    args: [
      { name: 'path', required: true, description: 'test file or directory' },
      { name: 'note', description: 'extra instructions' },
    ],
  },
  { name: 'triage', goalTemplate: 'Triage this report: {{report}}', args: [{ name: 'report', required: true }] },
  { name: 'standup', goalTemplate: 'Summarise yesterday in the repository.' },
]);

describe('slash commands', () => {
  it('expand positional arguments; the last one takes the rest of the line', () => {
    expect(expandSlashCommand('/fix-tests src/a.test.ts   keep the   public API', commands)).toEqual({
      goal: 'Make the tests in src/a.test.ts pass. keep the   public API',
      command: { name: 'fix-tests', args: { path: 'src/a.test.ts', note: 'keep the   public API' } },
    });
    expect(expandSlashCommand('/triage login fails on Safari', commands).goal).toBe('Triage this report: login fails on Safari');
    expect(expandSlashCommand('/standup', commands).goal).toBe('Summarise yesterday in the repository.');
  });

  it('accept quotes and name=value, and leave optional arguments empty', () => {
    expect(expandSlashCommand('/fix-tests note="be quick" "dir with spaces/"', commands).command.args).toEqual({ note: 'be quick', path: 'dir with spaces/' });
    expect(expandSlashCommand('/fix-tests src', commands).goal).toBe('Make the tests in src pass.');
  });

  it('say exactly what is wrong', () => {
    expect(() => expandSlashCommand('/deploy now', commands)).toThrow('unknown command /deploy; available: /fix-tests, /triage, /standup');
    expect(() => expandSlashCommand('/fix-tests', commands)).toThrow('/fix-tests needs <path> (test file or directory); usage: /fix-tests <path> [note]');
    expect(() => expandSlashCommand('/standup today', commands)).toThrow('too many arguments for /standup');
    expect(() => expandSlashCommand('fix the tests', commands)).toThrow('expected a slash command');
    expect(slashCommandUsage(commands[0]!)).toBe('/fix-tests <path> [note]');
  });

  it('validate templates as stored on an agent template', () => {
    const bad = (c: object) => slashCommandsSchema.safeParse([c]).error?.issues[0]?.message;
    expect(bad({ name: 'x', goalTemplate: 'Do {{thing}}' })).toBe('/x: template uses {{thing}} but declares no such argument');
    expect(bad({ name: 'x', goalTemplate: 'a', args: [{ name: 'a' }, { name: 'b', required: true }] })).toBe(
      '/x: required arguments must come before optional ones',
    );
    expect(bad({ name: 'Bad Name', goalTemplate: 'a' })).toBe('command names are lowercase letters, digits and -');
    expect(
      slashCommandsSchema.safeParse([
        { name: 'x', goalTemplate: 'a' },
        { name: 'x', goalTemplate: 'b' },
      ]).error?.issues[0]?.message,
    ).toBe('/x is defined twice');
  });
});

describe('run config', () => {
  it('defaults everything but the model name', () => {
    const config = parseRunConfig({ model: { model: 'gpt-x' } });
    expect(config.model).toEqual({ model: 'gpt-x', contextWindow: 128_000, maxOutputTokens: 4096, inputMicrosPerMTok: 0, outputMicrosPerMTok: 0 });
    expect(config.limits).toEqual({ maxTurns: 50, maxToolOutputBytes: 16_000 });
  });

  it('reports the first problem with its path', () => {
    expect(() => parseRunConfig({ model: { model: 'm', contextWindow: -1 } })).toThrow('invalid run config: model.contextWindow:');
    expect(() =>
      parseRunConfig({
        model: { model: 'm' },
        tools: [
          { name: 'a', description: '' },
          { name: 'a', description: '' },
        ],
      }),
    ).toThrow('tool a is listed twice');
  });
});
