'use client';

import { useMutation } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import { InlineError } from '@/components/ui/inline-error';
import { useTRPC } from '@/trpc/client';
import { DecisionBadge } from './decision-badge';

const TOOLS = ['shell', 'read_file', 'write_file', 'edit_file', 'http_request', 'delegate', 'other'] as const;

/** The main argument of each tool, so the common cases need one input instead of JSON. */
const MAIN_ARG: Record<string, string | undefined> = { shell: 'command', read_file: 'path', write_file: 'path', edit_file: 'path', http_request: 'url' };

/**
 * Tries a tool call against the draft in the editor (or the active version) without changing
 * anything, and shows the decision, the rule that matched and every rule tried.
 */
export function PolicySimulator({ teamId, draft }: { teamId: string; draft: string }) {
  const trpc = useTRPC();
  const simulate = useMutation(trpc.policies.simulate.mutationOptions());
  const [tool, setTool] = useState<string>('shell');
  const [customTool, setCustomTool] = useState('');
  const [main, setMain] = useState('rm -rf /');
  const [extra, setExtra] = useState('');
  const [useDraft, setUseDraft] = useState(true);
  const [argsError, setArgsError] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    let args: Record<string, unknown> = {};
    if (extra.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(extra);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        args = parsed as Record<string, unknown>;
      } catch {
        setArgsError('Other arguments must be a JSON object, e.g. {"method": "POST"}');
        return;
      }
    }
    setArgsError(null);
    const key = MAIN_ARG[tool];
    if (key) args = { ...args, [key]: main };
    const name = tool === 'other' ? customTool.trim() : tool;
    simulate.mutate({ teamId, tool: name, args, ...(useDraft ? { document: draft } : {}) });
  }

  const result = simulate.data;
  return (
    <Card>
      <CardHeader title="Simulator" description="Try a call before saving. Nothing runs and nothing is recorded." />
      <form onSubmit={onSubmit} className="flex flex-col gap-3 p-4" data-testid="policy-simulator">
        <div className="grid grid-cols-[10rem_minmax(0,1fr)] gap-3">
          <Field label="Tool" htmlFor="sim-tool">
            <Select id="sim-tool" value={tool} onChange={(e) => setTool(e.target.value)} data-testid="sim-tool">
              {TOOLS.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </Select>
          </Field>
          {tool === 'other' ? (
            <Field label="Tool name" htmlFor="sim-custom-tool">
              <Input
                id="sim-custom-tool"
                value={customTool}
                onChange={(e) => setCustomTool(e.target.value)}
                required
                maxLength={200}
                placeholder="mcp:github:create_issue"
              />
            </Field>
          ) : MAIN_ARG[tool] ? (
            <Field label={MAIN_ARG[tool]!} htmlFor="sim-main">
              <Input id="sim-main" value={main} onChange={(e) => setMain(e.target.value)} className="font-mono" data-testid="sim-main" />
            </Field>
          ) : (
            <div />
          )}
        </div>
        <Field label="Other arguments (JSON, optional)" htmlFor="sim-extra">
          <Textarea id="sim-extra" value={extra} onChange={(e) => setExtra(e.target.value)} className="font-mono text-xs" placeholder='{"method": "GET"}' />
        </Field>
        <div className="flex items-center justify-between gap-3">
          <label className="flex items-center gap-2 text-xs text-muted">
            <input type="checkbox" checked={useDraft} onChange={(e) => setUseDraft(e.target.checked)} data-testid="sim-use-draft" />
            Use the draft in the editor (unchecked: the active version)
          </label>
          <Button type="submit" disabled={simulate.isPending} data-testid="sim-run">
            <FlaskConical className="size-3.5" aria-hidden />
            Simulate
          </Button>
        </div>
        {argsError ? <p className="text-xs text-danger">{argsError}</p> : null}
        <InlineError error={simulate.error} testId="sim-error" />
        {result ? (
          <div className="flex flex-col gap-2 rounded-md border border-border bg-surface-2/50 p-3 text-[13px]" data-testid="sim-result">
            <div className="flex flex-wrap items-center gap-2">
              <DecisionBadge outcome={result.outcome} role={result.approverRole} testId="sim-outcome" />
              <span>
                rule{' '}
                <code className="font-mono" data-testid="sim-rule">
                  {result.ruleId}
                </code>
              </span>
              <span className="text-xs text-muted">
                risk {result.risk} · {result.draft ? 'draft' : 'active version'}
              </span>
              {result.sandbox ? (
                <span
                  className="text-xs"
                  data-testid="sim-sandbox"
                  title="The least isolation this call would run with: the worker uses this driver or a stronger one, or refuses the call"
                >
                  sandbox <code className="font-mono">{result.sandbox}</code> or stronger
                </span>
              ) : null}
            </div>
            <p data-testid="sim-reason">{result.reason}</p>
            {result.effects.length > 0 ? (
              <div className="flex flex-col gap-0.5 text-xs" data-testid="sim-effects">
                <span className="text-muted">After it runs, its result is checked by:</span>
                <ul className="flex flex-col gap-0.5">
                  {result.effects.map((effect) => (
                    <li key={effect.ruleId}>
                      <code className="font-mono">{effect.ruleId}</code>: {effect.holds} →{' '}
                      {effect.outcome === 'require_approval' ? `held for an ${effect.approverRole ?? 'approver'}` : effect.outcome}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <ol className="flex flex-col gap-0.5 text-xs text-muted">
              {result.trace.map((step) => (
                <li key={step.ruleId} className={step.matched ? 'font-medium text-foreground' : undefined}>
                  {step.matched ? '✔' : '·'} {step.ruleId}: {step.explanation}
                </li>
              ))}
            </ol>
          </div>
        ) : null}
      </form>
    </Card>
  );
}
