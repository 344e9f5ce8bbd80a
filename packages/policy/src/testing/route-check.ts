import { expect } from 'vitest';
import { defaultPolicy } from '../document/default-policy';
import { evaluate } from '../evaluate/evaluate';
import type { Decision } from '../evaluate/decision';
import type { ShellAnalysis } from '../shell/analysis-types';

/** The classes of the pre-check, as a route table names them (`'runsCode+destructive'`, `''` for none). */
type Classes = string;

/** One line with what the pre-check must say about it and the default policy's rule for it. */
export type Route = [line: string, classes: Classes, rule: string, args?: Record<string, unknown>];

function classesOf(analysis: ShellAnalysis): string {
  const found: string[] = [];
  if (analysis.unparsable !== null) found.push('unparsable');
  if (analysis.destructive.length > 0) found.push('destructive');
  if (analysis.dynamic.length > 0) found.push('dynamic');
  if (analysis.runsCode.length > 0) found.push('runsCode');
  return found.sort().join('+');
}

/**
 * Decides a route under the default policy and checks it: the classes of the analysis exactly,
 * the rule, and what must hold whatever the table says. A destructive line is held before it runs;
 * a line that runs code is never allowed by `shell-safe`, only by `shell-safe-runs-code` (whose
 * effect is decided after it runs) or by asking first.
 */
export function checkRoute([line, classes, rule, args]: Route): Decision {
  const decision = evaluate(defaultPolicy, { tool: 'shell', args: { command: line, ...args } });
  const analysis = decision.analysis as ShellAnalysis;
  const findings = { destructive: analysis.destructive, dynamic: analysis.dynamic, runsCode: analysis.runsCode };
  const expected = classes.split('+').filter(Boolean).sort().join('+');
  expect({ line, classes: classesOf(analysis), rule: decision.ruleId }, JSON.stringify(findings)).toEqual({ line, classes: expected, rule });
  if (analysis.destructive.length > 0) expect(decision.outcome).toBe('require_approval');
  if (analysis.runsCode.length > 0) {
    expect(decision.ruleId).not.toBe('shell-safe');
    if (decision.outcome === 'allow') {
      expect(decision.ruleId).toBe('shell-safe-runs-code');
      // The reason names what runs, for the simulator.
      expect(decision.reason).toContain((analysis.runsCode[0] as { reason: string }).reason);
    }
  }
  return decision;
}
