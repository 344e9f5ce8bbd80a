import type { CodeIssue } from '@/lib/code-issues';

/** "line 3, column 7: " for an issue with a position; nothing for one about the whole document. */
function issuePlace(issue: CodeIssue): string {
  return issue.line === undefined ? '' : `line ${issue.line}, column ${issue.column ?? 1}: `;
}

/** The problems an editor marks, as text below it: where, which value, what is wrong. */
export function CodeIssueList({ issues, id, testId }: { issues: readonly CodeIssue[]; id?: string; testId: string }) {
  if (issues.length === 0) return null;
  return (
    <ul id={id} className="flex flex-col gap-1 rounded-md border border-danger/25 bg-danger-soft px-3 py-2 text-xs text-danger" data-testid={testId}>
      {issues.map((issue) => (
        <li key={`${issue.line}:${issue.column}:${issue.path}:${issue.message}`} data-line={issue.line}>
          {issuePlace(issue)}
          {issue.path ? <span className="font-mono">{issue.path}</span> : null}
          {issue.path ? ': ' : ''}
          {issue.message}
        </li>
      ))}
    </ul>
  );
}
