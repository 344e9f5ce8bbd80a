import type { ReactNode } from 'react';

/** A text value of the arguments, if it is one. */
function text(args: Record<string, unknown>, key: string): string | null {
  const value = args[key];
  return typeof value === 'string' ? value : null;
}

function Block({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <pre
      data-testid={testId}
      className="max-h-64 overflow-auto rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-xs leading-5 whitespace-pre-wrap break-all"
    >
      {children}
    </pre>
  );
}

/** Lines of an edit as a diff: what goes, then what comes. */
function Diff({ before, after }: { before: string; after: string }) {
  return (
    <Block testId="approval-diff">
      {before.split('\n').map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of lines, never reordered; a line's number is its identity
        <span key={`-${i}`} className="block text-danger">{`- ${line}`}</span>
      ))}
      {after.split('\n').map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of lines, never reordered; a line's number is its identity
        <span key={`+${i}`} className="block text-success">{`+ ${line}`}</span>
      ))}
    </Block>
  );
}

/**
 * The exact call an approver is asked about: a shell command as the command line, a file edit as
 * a diff, a file write with its content, anything else as its JSON arguments.
 */
export function CallPreview({ tool, args }: { tool: string | null; args: Record<string, unknown> }) {
  const command = text(args, 'command');
  if (tool === 'shell' && command !== null) return <Block testId="approval-command">{`$ ${command}`}</Block>;
  const path = text(args, 'path');
  const before = text(args, 'old_string');
  const after = text(args, 'new_string');
  if (path !== null && before !== null && after !== null) {
    return (
      <div className="flex flex-col gap-1">
        <span className="font-mono text-xs text-muted">{path}</span>
        <Diff before={before} after={after} />
      </div>
    );
  }
  const content = text(args, 'content');
  if (path !== null && content !== null) {
    return (
      <div className="flex flex-col gap-1">
        <span className="font-mono text-xs text-muted">write {path}</span>
        <Diff before="" after={content} />
      </div>
    );
  }
  return <Block testId="approval-args">{JSON.stringify(args, null, 2)}</Block>;
}
