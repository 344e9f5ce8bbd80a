import { describe, expect, it } from 'vitest';
import { defaultPolicy } from './default-policy';
import { parsePolicyDocument, validatePolicyDocument } from './parse-document';

describe('the breakers section', () => {
  it('left out, every breaker is on with the defaults the built-in policy spells out', () => {
    const doc = parsePolicyDocument('version: 1\n');
    expect(doc.breakers).toEqual({
      repeatCall: { enabled: true, times: 8, windowTurns: 12 },
      noProgress: { enabled: true, turns: 40 },
      spendRate: { enabled: true, perSession: { costMicros: 5_000_000, tokens: 2_000_000 }, perGraphRun: { costMicros: 20_000_000, tokens: 10_000_000 } },
      fanOut: { enabled: true, maxInFlight: 16 },
    });
    expect(defaultPolicy.breakers).toEqual(doc.breakers);
  });

  it('validates a written section and fills in what it leaves out', () => {
    const doc = parsePolicyDocument(`version: 1
breakers:
  repeatCall: { times: 3, windowTurns: 5 }
  noProgress: { enabled: false }
  spendRate:
    perSession: { tokens: 1000 }
  fanOut: { maxInFlight: 4 }
`);
    expect(doc.breakers.repeatCall).toEqual({ enabled: true, times: 3, windowTurns: 5 });
    expect(doc.breakers.noProgress).toEqual({ enabled: false, turns: 40 });
    // A rate limit written out replaces the default: only the tokens are checked per session.
    expect(doc.breakers.spendRate.perSession).toEqual({ tokens: 1000 });
    expect(doc.breakers.spendRate.perGraphRun).toEqual({ costMicros: 20_000_000, tokens: 10_000_000 });
    expect(doc.breakers.fanOut.maxInFlight).toBe(4);
  });

  it.each([
    ['repeatCall: { times: 1 }', 'breakers.repeatCall.times', 3, /2/],
    ['repeatCall: { windowTurns: 500 }', 'breakers.repeatCall.windowTurns', 3, /100/],
    ['noProgress: { turns: 0 }', 'breakers.noProgress.turns', 3, /1/],
    ['noProgress: { turns: 2.5 }', 'breakers.noProgress.turns', 3, /int/i],
    ['spendRate: { perSession: { costMicros: -5 } }', 'breakers.spendRate.perSession.costMicros', 3, /0/],
    ['spendRate: { perRun: { tokens: 5 } }', 'breakers.spendRate.perRun', 3, /unrecognized|unknown/i],
    ['fanOut: { maxInFlight: "many" }', 'breakers.fanOut.maxInFlight', 3, /number/i],
    ['fanOut: { enabled: yes please }', 'breakers.fanOut.enabled', 3, /boolean/i],
    ['loops: { max: 3 }', 'breakers.loops', 3, /unrecognized|unknown/i],
  ])('refuses %s at its line', (line, path, lineNo, message) => {
    const result = validatePolicyDocument(`version: 1\nbreakers:\n  ${line}\n`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const issue = result.issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(result.issues)).toBeDefined();
    expect(issue!.line).toBe(lineNo);
    expect(issue!.message).toMatch(message);
  });

  it('names the line in the thrown message', () => {
    expect(() => parsePolicyDocument('version: 1\nbreakers:\n  repeatCall:\n    times: 0\n')).toThrow(/breakers\.repeatCall\.times \(line 4, column 12\)/);
  });
});
