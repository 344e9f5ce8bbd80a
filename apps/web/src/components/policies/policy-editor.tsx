'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Input, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import type { RouterOutputs } from '@/lib/api-types';
import { useTRPC } from '@/trpc/client';
import { RedecidedCalls } from './redecided-calls';

type Issues = RouterOutputs['policies']['validate']['issues'];
type Saved = RouterOutputs['policies']['save'];

/** Validation runs this long after the last keystroke, so typing stays smooth. */
const VALIDATE_DELAY_MS = 350;

/**
 * The policy as JSON or YAML text. Every edit is validated by the server's parser (live, with
 * path and line); saving makes a new active version and lists the recent real calls it would
 * now decide differently.
 */
export function PolicyEditor({ teamId, initialText, canSave, text, onTextChange }: {
  teamId: string;
  initialText: string;
  canSave: boolean;
  text: string;
  onTextChange: (text: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [issues, setIssues] = useState<Issues | null>(null);
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

  useEffect(() => {
    if (text.trim() === '' || text.length > 65_536) {
      setIssues([{ path: '', message: text.trim() === '' ? 'the policy is empty' : 'the policy is longer than 65536 characters' }]);
      return;
    }
    const timer = setTimeout(() => runValidate({ teamId, document: text }, { onSuccess: (result) => setIssues(result.issues) }), VALIDATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, teamId, runValidate]);

  const dirty = text !== initialText;
  const valid = issues !== null && issues.length === 0;

  return (
    <Card>
      <CardHeader
        title="Policy document"
        description="JSON or YAML. Rules are tried in order; the first that matches decides; otherwise the default applies."
        actions={
          <span className="text-xs" data-testid="policy-validity">
            {issues === null ? <span className="text-muted">Checking…</span> : valid ? <span className="text-success">Valid</span> : <span className="text-danger">{issues.length} problem{issues.length === 1 ? '' : 's'}</span>}
          </span>
        }
      />
      <div className="flex flex-col gap-3 p-4">
        <Textarea
          aria-label="Policy document"
          value={text}
          onChange={(event) => {
            onTextChange(event.target.value);
            setSaved(null);
            save.reset();
          }}
          spellCheck={false}
          readOnly={!canSave}
          className="min-h-[28rem] font-mono text-xs leading-5"
          data-testid="policy-text"
        />
        {issues && issues.length > 0 ? (
          <ul className="flex flex-col gap-1 rounded-md border border-danger/25 bg-danger-soft px-3 py-2 text-xs text-danger" data-testid="policy-issues">
            {issues.map((issue, i) => (
              <li key={i}>
                <span className="font-mono">{issue.path || '(document)'}</span>
                {issue.line !== undefined ? ` (line ${issue.line}, column ${issue.column ?? 1})` : ''}: {issue.message}
              </li>
            ))}
          </ul>
        ) : null}
        {canSave ? (
          <div className="flex items-center gap-2">
            <Input value={comment} onChange={(e) => setComment(e.target.value)} maxLength={500} placeholder="What changed and why (optional)" aria-label="Comment" data-testid="policy-comment" />
            <Button variant="primary" disabled={!dirty || save.isPending} onClick={() => save.mutate({ teamId, document: text, comment })} data-testid="policy-save">
              <Save className="size-3.5" aria-hidden />
              Save new version
            </Button>
          </div>
        ) : (
          <p className="text-xs text-muted">Only admins change the policy.</p>
        )}
        <InlineError error={save.error} testId="policy-save-error" />
        {saved ? <RedecidedCalls saved={saved} /> : null}
      </div>
    </Card>
  );
}
