'use client';

import { slashCommandUsage, type SlashCommand } from '@looplane/engine';

/** What to hint for a goal: matching commands while the name is typed, the usage once it is. */
export function hintsFor(goal: string, commands: SlashCommand[]): { complete: SlashCommand[]; usage: SlashCommand | null } {
  const match = /^\/([a-z0-9-]*)(\s|$)/.exec(goal);
  if (!goal.startsWith('/') || !match) return { complete: [], usage: null };
  const name = match[1] ?? '';
  if (match[2] === '') return { complete: commands.filter((c) => c.name.startsWith(name)), usage: null };
  return { complete: [], usage: commands.find((c) => c.name === name) ?? null };
}

/** The slash-command menu under the goal box. */
export function SlashHints(props: { goal: string; commands: SlashCommand[]; onPick: (command: SlashCommand) => void }) {
  const { complete, usage } = hintsFor(props.goal, props.commands);
  if (!props.goal.startsWith('/')) {
    return props.commands.length > 0 ? (
      <p className="text-xs text-muted" data-testid="composer-slash-tip">
        Type <kbd className="font-mono">/</kbd> for this agent’s commands: {props.commands.map((c) => `/${c.name}`).join(', ')}
      </p>
    ) : null;
  }
  if (usage) {
    return (
      <p className="font-mono text-xs text-muted" data-testid="composer-usage">
        {slashCommandUsage(usage)}
        {usage.description ? <span className="ml-2 font-sans">— {usage.description}</span> : null}
      </p>
    );
  }
  if (complete.length === 0) {
    return (
      <p className="text-xs text-danger" data-testid="composer-no-command">
        No such command. Available: {props.commands.map((c) => `/${c.name}`).join(', ') || 'none'}
      </p>
    );
  }
  return (
    <ul className="flex flex-col gap-0.5 rounded-md border border-border bg-surface p-1 shadow-xs" data-testid="composer-hints">
      {complete.map((command) => (
        <li key={command.name}>
          <button
            type="button"
            data-testid="composer-hint"
            data-command={command.name}
            onClick={() => props.onPick(command)}
            className="flex w-full items-baseline gap-3 rounded px-2 py-1 text-left hover:bg-surface-2"
          >
            <span className="font-mono text-xs">{slashCommandUsage(command)}</span>
            <span className="truncate text-xs text-muted">{command.description}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
