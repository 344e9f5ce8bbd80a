'use client';

import { useMemo, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { CodeEditor } from '@/components/ui/code-editor';
import { CodeIssueList } from '@/components/ui/code-issue-list';
import { Label } from '@/components/ui/field';
import { type CodeIssue, issuesAtPaths, jsonSyntaxIssues } from '@/lib/code-issues';

/** A problem the server reported for one field after a save, with the text that was sent. */
export interface FieldRejection {
  text: string;
  issues: { path: string[]; message: string }[];
}

/** One JSON setting of an agent: its text, and what is wrong with it at its line and column. */
export interface JsonFieldState {
  text: string;
  setText: (text: string) => void;
  issues: CodeIssue[];
  /** A syntax error: the text cannot be sent at all. */
  blocked: boolean;
}

/**
 * The text of a JSON setting and its problems as you type: the syntax error, then the engine's
 * schema (the one the server applies), then what the server refused on the last save, as long as
 * the text is still the one it refused.
 */
export function useJsonField(initial: string, schema: z.ZodType | null, rejection: FieldRejection | null): JsonFieldState {
  const [text, setText] = useState(initial);
  const { issues, blocked } = useMemo(() => {
    const syntax = jsonSyntaxIssues(text);
    if (syntax.length > 0) return { issues: syntax, blocked: true };
    if (rejection && rejection.text === text) return { issues: issuesAtPaths(text, rejection.issues), blocked: false };
    if (!schema || text.trim() === '') return { issues: [], blocked: false };
    const result = schema.safeParse(JSON.parse(text));
    return { issues: result.success ? [] : issuesAtPaths(text, result.error.issues), blocked: false };
  }, [text, schema, rejection]);
  return { text, setText, issues, blocked };
}

/** The field: a label, the JSON editor (its text also goes into the form as `name`), the problems, a hint. */
export function JsonField({
  id,
  label,
  hint,
  name,
  testId,
  field,
  minHeight,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  name: string;
  testId: string;
  field: JsonFieldState;
  minHeight?: string;
}) {
  const issuesId = `${id}-issues`;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <Label id={`${id}-label`}>{label}</Label>
      <CodeEditor
        language="json"
        labelledBy={`${id}-label`}
        describedBy={field.issues.length > 0 ? issuesId : undefined}
        value={field.text}
        onChange={field.setText}
        issues={field.issues}
        name={name}
        testId={testId}
        minHeight={minHeight}
      />
      <CodeIssueList issues={field.issues} id={issuesId} testId={`${testId}-issues`} />
      {hint ? <p className="text-xs text-muted">{hint}</p> : null}
    </div>
  );
}
