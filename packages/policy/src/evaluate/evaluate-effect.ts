import picomatch from 'picomatch';
import type { FileChange, EffectMatch, WorkspaceEffect } from '../document/effect-schema';
import type { ApproverRole, Outcome, PolicyDocument, Risk, Rule } from '../document/policy-schema';
import { toolMatches } from '../tool-names';
import { DEFAULT_RULE, type PolicyCall, type PolicyContext, type TraceStep } from './decision';
import { matchRule } from './match-rule';
import { prepareCall } from './prepare-call';

/** The policy's answer for a call's effect. `approverRole` is set exactly when the outcome is require_approval. */
export interface EffectDecision {
  outcome: Outcome;
  ruleId: string;
  reason: string;
  approverRole?: ApproverRole;
  risk: Risk;
  trace: TraceStep[];
}

export interface EffectOptions {
  context?: PolicyContext;
  /**
   * A human approved the call before it ran: an effect rule's require_approval is then covered by
   * that approval (the approver saw the command). A deny still applies.
   */
  approved?: boolean;
}

const globs = new Map<string, (path: string) => boolean>();
function glob(pattern: string): (path: string) => boolean {
  let matcher = globs.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true });
    globs.set(pattern, matcher);
  }
  return matcher;
}

/** The changes `paths` selects: a change counts when its path (or, for a move, its old path) matches. */
function selected(changes: readonly FileChange[], paths: readonly string[] | undefined): FileChange[] {
  if (!paths) return [...changes];
  const positive = paths.filter((p) => !p.startsWith('!'));
  const negative = paths.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const hit = (path: string) => positive.some((p) => glob(p)(path)) && !negative.some((p) => glob(p)(path));
  return changes.filter((change) => hit(change.path) || (change.from !== undefined && hit(change.from)));
}

/** Up to three paths of a list, for a reason line. */
function sample(changes: readonly FileChange[]): string {
  const shown = changes.slice(0, 3).map((c) => c.path);
  return changes.length > 3 ? `${shown.join(', ')} (+${changes.length - 3} more)` : shown.join(', ');
}

type EffectCheck = { ok: true; detail: string } | { ok: false; why: string };

/** Whether a rule's effect conditions hold for an effect; the detail names the files that made them hold. */
export function effectMatches(match: EffectMatch, changes: readonly FileChange[]): EffectCheck {
  const files = selected(changes, match.paths);
  const where = match.paths ? ' matching paths' : '';
  const details: string[] = [];
  if (match.paths && files.length === 0) return { ok: false, why: 'no changed file matches paths' };
  for (const [field, kind, verb] of [
    ['deletes', 'deleted', 'deleted'],
    ['truncates', 'truncated', 'truncated'],
  ] as const) {
    const wanted = match[field];
    if (wanted === undefined) continue;
    const hits = files.filter((c) => c.kind === kind);
    if (wanted && hits.length === 0) return { ok: false, why: `no file${where} was ${verb}` };
    if (!wanted && hits.length > 0) return { ok: false, why: `${sample(hits)} was ${verb}` };
    if (wanted) details.push(`${verb} ${sample(hits)}`);
  }
  if (match.maxFilesChanged !== undefined) {
    if (files.length <= match.maxFilesChanged) return { ok: false, why: `${files.length} file(s)${where} changed, not more than ${match.maxFilesChanged}` };
    details.push(`${files.length} files${where} changed (more than ${match.maxFilesChanged})`);
  }
  if (details.length === 0) details.push(`changed ${sample(files)}`);
  return { ok: true, detail: details.join('; ') };
}

function decided(rule: Rule, detail: string, approved: boolean, trace: TraceStep[]): EffectDecision {
  const risk: Risk = rule.risk ?? (rule.outcome === 'allow' ? 'low' : 'high');
  if (rule.outcome === 'allow') return { outcome: 'allow', ruleId: rule.id, reason: `allowed by policy rule "${rule.id}": the call ${detail}`, risk, trace };
  if (rule.outcome === 'require_approval' && approved) {
    return {
      outcome: 'allow',
      ruleId: rule.id,
      reason: `policy rule "${rule.id}" requires approval for this effect (the call ${detail}); the call was approved before it ran`,
      risk,
      trace,
    };
  }
  const base = rule.reason ?? (rule.outcome === 'deny' ? `denied by policy rule "${rule.id}"` : `policy rule "${rule.id}" requires approval`);
  return {
    outcome: rule.outcome,
    ruleId: rule.id,
    reason: `${base}: the call ${detail}`,
    ...(rule.outcome === 'require_approval' ? { approverRole: rule.approverRole ?? 'approver' } : {}),
    risk,
    trace,
  };
}

/**
 * Decides what a mutating call did: the document's effect rules in order, first match wins. A
 * call whose effect no effect rule matches keeps it (the call itself was already allowed or
 * approved); an effect with no changed file matches nothing.
 */
export function evaluateEffect(
  document: PolicyDocument,
  call: PolicyCall,
  effect: Pick<WorkspaceEffect, 'changes'>,
  options: EffectOptions = {},
): EffectDecision {
  const trace: TraceStep[] = [];
  const prepared = prepareCall(call, options.context);
  for (const rule of document.rules) {
    const conditions = rule.match.effect;
    if (!conditions) continue;
    const called = matchRule(rule, prepared, document);
    if (!called.matched) {
      trace.push({ ruleId: rule.id, matched: false, explanation: called.explanation });
      continue;
    }
    const result = effectMatches(conditions, effect.changes);
    trace.push({ ruleId: rule.id, matched: result.ok, explanation: result.ok ? `matched: the call ${result.detail}` : result.why });
    if (result.ok) return decided(rule, result.detail, options.approved ?? false, trace);
  }
  return { outcome: 'allow', ruleId: DEFAULT_RULE, reason: 'no effect rule matches what the call changed', risk: 'low', trace };
}

/** Whether any effect rule of the document can apply to `tool` (otherwise no effect needs computing). */
export function hasEffectRules(document: PolicyDocument, tool: string): boolean {
  return document.rules.some((rule) => rule.match.effect !== undefined && toolMatches(rule.match.tool, tool));
}
