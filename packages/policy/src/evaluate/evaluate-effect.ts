import picomatch from 'picomatch';
import { type EffectMatch, type FileChange, lostBytesOf, type WorkspaceEffect } from '../document/effect-schema';
import type { ApproverRole, Outcome, PolicyDocument, Risk, Rule } from '../document/policy-schema';
import { toolMatches } from '../tool-names';
import { DEFAULT_RULE, type PolicyCall, type PolicyContext, type TraceStep } from './decision';
import { matchRule } from './match-rule';
import { approvedTargets, beyondApproval } from './approved-targets';
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
   * that approval, for what the approver saw: content lost at the paths the command names. A loss
   * anywhere else (a link planted earlier redirecting an approved `rm`) is held again. A deny still applies.
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
  for (const check of [lostTotal, lostShare, existingChanged, retyped]) {
    const result = check(match, files, where);
    if (result === null) continue;
    if (!result.ok) return result;
    details.push(result.detail);
  }
  if (details.length === 0) details.push(`changed ${sample(files)}`);
  return { ok: true, detail: details.join('; ') };
}

type Condition = (match: EffectMatch, files: readonly FileChange[], where: string) => EffectCheck | null;

const lostTotal: Condition = (match, files, where) => {
  if (match.lostBytes === undefined) return null;
  const lost = files.reduce((sum, c) => sum + lostBytesOf(c), 0);
  if (lost <= match.lostBytes) return { ok: false, why: `${lost} bytes of earlier content${where} lost, not more than ${match.lostBytes}` };
  return { ok: true, detail: `lost ${lost} bytes of earlier content${where} (more than ${match.lostBytes})` };
};

const lostShare: Condition = (match, files, where) => {
  if (match.lostFraction === undefined) return null;
  const fraction = match.lostFraction;
  const big = files.filter((c) => (c.oldBytes ?? 0) > 0 && (c.oldBytes ?? 0) >= (match.minFileBytes ?? 0));
  const hits = big.filter((c) => lostBytesOf(c) / (c.oldBytes as number) > fraction);
  const percent = `${Math.round(fraction * 100)} %`;
  const size = match.minFileBytes ? ` of at least ${match.minFileBytes} bytes` : '';
  if (hits.length === 0) return { ok: false, why: `no file${where}${size} lost more than ${percent} of its content` };
  const shown = hits.slice(0, 3).map((c) => `${c.path} ${Math.round((lostBytesOf(c) / (c.oldBytes as number)) * 100)} %`);
  return { ok: true, detail: `lost more than ${percent} of ${hits.length === 1 ? 'a file' : `${hits.length} files`}${size} (${shown.join(', ')})` };
};

const existingChanged: Condition = (match, files, where) => {
  if (match.filesChanged === undefined) return null;
  const changed = files.filter((c) => c.kind !== 'added');
  if (changed.length <= match.filesChanged)
    return { ok: false, why: `${changed.length} existing file(s)${where} changed, not more than ${match.filesChanged}` };
  return { ok: true, detail: `changed ${changed.length} existing files${where} (more than ${match.filesChanged}: ${sample(changed)})` };
};

const retyped: Condition = (match, files, where) => {
  if (match.typeChanged === undefined) return null;
  const hits = files.filter((c) => c.kind === 'type_changed');
  if (match.typeChanged && hits.length === 0) return { ok: false, why: `no file${where} changed its type` };
  if (!match.typeChanged && hits.length > 0) return { ok: false, why: `${sample(hits)} changed its type` };
  return match.typeChanged ? { ok: true, detail: `changed the type of ${sample(hits)}` } : null;
};

/** What an approved call changed beyond the paths its approver saw: null when nothing (or the call was not approved). */
type Beyond = FileChange[] | null;

function decided(rule: Rule, detail: string, approved: boolean, beyond: Beyond, trace: TraceStep[]): EffectDecision {
  const risk: Risk = rule.risk ?? (rule.outcome === 'allow' ? 'low' : 'high');
  if (rule.outcome === 'allow') return { outcome: 'allow', ruleId: rule.id, reason: `allowed by policy rule "${rule.id}": the call ${detail}`, risk, trace };
  if (rule.outcome === 'require_approval' && approved && beyond !== null && beyond.length > 0) {
    return {
      outcome: 'require_approval',
      ruleId: rule.id,
      reason: `the call was approved, but it lost content beyond the paths its command names (${sample(beyond)}), which its approver was not shown: policy rule "${rule.id}" holds it again (the call ${detail})`,
      approverRole: rule.approverRole ?? 'approver',
      risk,
      trace,
    };
  }
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
  const beyond = options.approved ? beyondApproval(effect.changes, approvedTargets(prepared, options.context?.workspaceRoot)) : null;
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
    if (result.ok) return decided(rule, result.detail, options.approved ?? false, beyond, trace);
  }
  return { outcome: 'allow', ruleId: DEFAULT_RULE, reason: 'no effect rule matches what the call changed', risk: 'low', trace };
}

/** Whether any effect rule of the document can apply to `tool` (otherwise no effect needs computing). */
export function hasEffectRules(document: PolicyDocument, tool: string): boolean {
  return document.rules.some((rule) => rule.match.effect !== undefined && toolMatches(rule.match.tool, tool));
}
