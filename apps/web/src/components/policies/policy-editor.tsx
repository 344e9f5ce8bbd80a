'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { CodeEditor } from '@/components/ui/code-editor';
import { CodeIssueList } from '@/components/ui/code-issue-list';
import { Input } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { type CodeIssue, yamlSyntaxIssues } from '@/lib/code-issues';
import { useTRPC } from '@/trpc/client';
import { RedecidedCalls } from './redecided-calls';

type Saved = RouterOutputs['policies']['save'];

/** Validation runs this long after the last keystroke, so typing stays smooth. */
const VALIDATE_DELAY_MS = 350;
const MAX_TEXT = 65_536;

/** What the text is about to become, for highlighting only: the server reads both the same way. */
const languageOf = (text: string) => (/^\s*[[{]/.test(text) ? 'json' : 'yaml');

/** Problems found without the server: too long, empty, or a syntax error (the same parser the server uses). */
function localIssues(text: string): CodeIssue[] {
  if (text.trim() === '') return [{ line: 1, column: 1, message: 'the policy is empty' }];
  if (text.length > MAX_TEXT) return [{ message: `the policy is longer than ${MAX_TEXT} characters` }];
  return yamlSyntaxIssues(text);
}

/**
 * The policy as JSON or YAML text. Syntax is checked in the browser on every keystroke with the
 * server's own parser and options, so a syntax error is marked at once and blocks saving; a
 * document that parses is then validated by the server against the policy schema (live, with
 * path and line). Saving makes a new active version and lists the recent real calls it would now
 * decide differently.
 */
export function PolicyEditor({
  teamId,
  initialText,
  canSave,
  text,
  onTextChange,
}: {
  teamId: string;
  initialText: string;
  canSave: boolean;
  text: string;
  onTextChange: (text: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The server's verdict, with the text it was given: a verdict for an older text is not shown as current.
  const [checked, setChecked] = useState<{ text: string; issues: CodeIssue[] } | null>(null);
  const [comment, setComment] = useState('');
  const [saved, setSaved] = useState<Saved | null>(null);
  const validate = useMutation(trpc.policies.validate.mutationOptions());
  const save = useMutation(
    trpc.policies.save.mutationOptions({
      onSuccess: (result) => {
        setSaved(result);
        setComment('');
        void queryClient.invalidateQueries({ queryKey: trpc.policies.pathKey() });
      },
    }),
  );
  const { mutate: runValidate } = validate;

  const local = useMemo(() => localIssues(text), [text]);
  useEffect(() => {
    if (local.length > 0) return;
    const timer = setTimeout(
      () => runValidate({ teamId, document: text }, { onSuccess: (result) => setChecked({ text, issues: result.issues }) }),
      VALIDATE_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text, teamId, runValidate, local]);

  const current = checked?.text === text ? checked.issues : null;
  // Until the server answers, the last verdict stays on screen (positions may be a keystroke old).
  const issues = useMemo(() => (local.length > 0 ? local : (current ?? checked?.issues ?? [])), [local, current, checked]);
  const dirty = text !== initialText;
  const valid = local.length === 0 && current !== null && current.length === 0;
  const blocked = local.length > 0;

  return (
    <Card>
      <CardHeader
        title="Policy document"
        description="JSON or YAML. Rules are tried in order; the first that matches decides; otherwise the default applies."
        actions={
          <span className="text-xs" data-testid="policy-validity">
            {local.length === 0 && current === null ? (
              <span className="text-muted">Checking…</span>
            ) : valid ? (
              <span className="text-success">Valid</span>
            ) : (
              <span className="text-danger">
                {issues.length} problem{issues.length === 1 ? '' : 's'}
              </span>
            )}
          </span>
        }
      />
      <div className="flex flex-col gap-3 p-4">
        <CodeEditor
          label="Policy document"
          language={languageOf(text)}
          value={text}
          onChange={(next) => {
            onTextChange(next);
            setSaved(null);
            save.reset();
          }}
          issues={issues}
          describedBy={issues.length > 0 ? 'policy-issues' : undefined}
          readOnly={!canSave}
          minHeight="28rem"
          maxHeight="40rem"
          testId="policy-text"
        />
        <CodeIssueList issues={issues} id="policy-issues" testId="policy-issues" />
        {canSave ? (
          <div className="flex items-center gap-2">
            <Input
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              maxLength={500}
              placeholder="What changed and why (optional)"
              aria-label="Comment"
              data-testid="policy-comment"
            />
            <Button
              variant="primary"
              disabled={!dirty || save.isPending || blocked}
              onClick={() => save.mutate({ teamId, document: text, comment })}
              data-testid="policy-save"
            >
              <Save className="size-3.5" aria-hidden />
              Save new version
            </Button>
          </div>
        ) : (
          <p className="text-xs text-muted">Only admins change the policy.</p>
        )}
        {canSave && blocked && dirty ? (
          <p className="text-xs text-danger" data-testid="policy-save-blocked">
            Fix the {local.length === 1 ? 'error' : 'errors'} above to save: the document must parse first.
          </p>
        ) : null}
        <InlineError error={save.error} testId="policy-save-error" />
        {saved ? <RedecidedCalls saved={saved} /> : null}
      </div>
    </Card>
  );
}
