import { type SandboxLevelDriver, strongerMinimum } from '@looplane/shared';
import type { PolicyDocument, Risk, Rule } from '../document/policy-schema';
import type { ShellAnalysis } from '../shell/analysis-types';
import { destructiveCode } from '../shell/code-risk';
import { LOAD_TOOLS } from '../tool-names';
import { BUILTIN_RULE, DEFAULT_RULE, type Decision, type PolicyCall, type PolicyContext, type Simulation, type TraceStep } from './decision';
import { effectPreviews } from './effect-preview';
import { matchRule } from './match-rule';
import { type PreparedCall, prepareCall } from './prepare-call';

/** The most telling finding of a shell analysis, for a reason line. */
function finding(analysis: ShellAnalysis | undefined): string | undefined {
  if (!analysis) return undefined;
  if (analysis.unparsable !== null) return `the command does not parse (${analysis.unparsable})`;
  const destructive = analysis.destructive[0];
  if (destructive) return `${destructive.command}: ${destructive.reason}`;
  const dynamic = analysis.dynamic[0];
  if (dynamic) return `${dynamic.command}: ${dynamic.reason}`;
  return codeFinding(analysis);
}

/** What code the line runs that the pre-check cannot read: shown even when a rule allows it. */
function codeFinding(analysis: ShellAnalysis | undefined): string | undefined {
  const code = analysis?.runsCode[0];
  if (!code || !analysis) return undefined;
  const calls = destructiveCode(analysis);
  return `${code.command}: ${code.reason}${calls ? `; the code calls ${calls}, so what it deletes or truncates is decided on its effect` : ''}`;
}

function derivedRisk(outcome: Decision['outcome'], analysis: ShellAnalysis | undefined): Risk {
  if (analysis && (analysis.destructive.length > 0 || destructiveCode(analysis) !== null)) return 'high';
  if (outcome === 'allow') return 'low';
  return 'medium';
}

/** The decision a matched rule gives (also used by `decideRequest`). */
export function fromRule(rule: Rule, analysis: ShellAnalysis | undefined): Decision {
  const detail = finding(analysis);
  const base =
    rule.reason ??
    (rule.outcome === 'allow'
      ? `allowed by policy rule "${rule.id}"`
      : rule.outcome === 'deny'
        ? `denied by policy rule "${rule.id}"`
        : `policy rule "${rule.id}" requires approval`);
  const shown = rule.outcome === 'allow' ? codeFinding(analysis) : detail;
  const reason = shown ? `${base}: ${shown}` : base;
  return {
    outcome: rule.outcome,
    ruleId: rule.id,
    reason,
    ...(rule.outcome === 'require_approval' ? { approverRole: rule.approverRole ?? 'approver' } : {}),
    risk: rule.risk ?? derivedRisk(rule.outcome, analysis),
    ...(analysis ? { analysis } : {}),
  };
}

/** The decision of the document's default, when no rule matched. */
export function fromDefault(document: PolicyDocument, prepared: PreparedCall): Decision {
  const detail = finding(prepared.shell);
  const base = `no policy rule matches this ${prepared.call.tool} call; the policy's default is ${document.default}`;
  return {
    outcome: document.default,
    ruleId: DEFAULT_RULE,
    reason: detail ? `${base} (${detail})` : base,
    ...(document.default === 'require_approval' ? { approverRole: 'approver' as const } : {}),
    risk: derivedRisk(document.default, prepared.shell),
    ...(prepared.shell ? { analysis: prepared.shell } : {}),
  };
}

/** The level a rule's call needs: its `minimumDriver`, at least the document's. */
function withIsolation(decision: Decision, rule: Rule | null, document: PolicyDocument): Decision & { sandbox: SandboxLevelDriver | null } {
  if (decision.outcome === 'deny') return { ...decision, sandbox: null };
  const level = strongerMinimum(rule?.minimumDriver, document.sandbox.minimumDriver) ?? document.sandbox.minimumDriver;
  return { ...decision, ...(rule?.minimumDriver ? { isolation: level } : {}), sandbox: level };
}

/** Decides a prepared call, collecting the trace. Shared by evaluate, simulate and redecide. */
export function decidePrepared(document: PolicyDocument, prepared: PreparedCall): Simulation {
  if (prepared.call.tool === LOAD_TOOLS) {
    return {
      outcome: 'allow',
      ruleId: BUILTIN_RULE,
      reason: `${LOAD_TOOLS} only lists tools and is always allowed`,
      risk: 'low',
      trace: [],
      effects: [],
      sandbox: null,
    };
  }
  const trace: TraceStep[] = [];
  for (const rule of document.rules) {
    if (rule.match.effect) {
      trace.push({ ruleId: rule.id, matched: false, explanation: "an effect rule: it is decided on the call's result, after the call runs" });
      continue;
    }
    const result = matchRule(rule, prepared, document);
    trace.push({ ruleId: rule.id, matched: result.matched, explanation: result.explanation });
    if (result.matched) return { ...withIsolation(fromRule(rule, prepared.shell), rule, document), trace, effects: effectPreviews(document, prepared) };
  }
  return { ...withIsolation(fromDefault(document, prepared), null, document), trace, effects: effectPreviews(document, prepared) };
}

/**
 * Decides one tool call: rules in order, first match wins, else the document's default. Pure and
 * synchronous; `context` places the workspace (default `/workspace`).
 */
export function evaluate(document: PolicyDocument, call: PolicyCall, context: PolicyContext = {}): Decision {
  const { trace: _trace, effects: _effects, sandbox: _sandbox, ...decision } = decidePrepared(document, prepareCall(call, context));
  return decision;
}

/** Like `evaluate`, with the trace of every rule tried and why it did or did not match (the simulator). */
export function simulate(document: PolicyDocument, call: PolicyCall, context: PolicyContext = {}): Simulation {
  return decidePrepared(document, prepareCall(call, context));
}
