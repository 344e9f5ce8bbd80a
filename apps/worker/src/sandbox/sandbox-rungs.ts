import type { DriverName, DriverProbe, SandboxTool } from '@looplane/sandbox';
import { isolationRank, meetsIsolation, SANDBOX_LEVEL_DRIVERS, type SandboxLevelDriver } from '@looplane/shared';

/** One driver a worker offers: its tools (bound to it) and its probe (started once, awaited when a call needs it). */
export interface Rung {
  name: DriverName;
  tools: Map<string, SandboxTool>;
  probe: Promise<DriverProbe>;
}

/** What asks a call for isolation: the template or graph node, the policy document, one of its rules. */
export interface IsolationNeed {
  /** The run's `sandbox.driver` (its template's or node's): a minimum level. `dangerous-none` asks for nothing. */
  wanted?: DriverName | undefined;
  /** The policy's `sandbox.minimumDriver`. */
  policyMinimum?: string | undefined;
  /** The minimum the policy's decision named for this call (`policy.decided`'s `isolation`), with its rule's id. */
  rule?: { minimum: string; ruleId: string | null } | undefined;
  /** Why the worker's default driver cannot run anything; null when it works. */
  defaultUnavailable: string | null;
}

/** A refusal; `level` is set when the call needs a level this worker cannot give (another worker may). */
export type Chosen = { ok: true; rung: Rung; probe: DriverProbe; minimum: string | null } | { ok: false; output: string; level?: SandboxLevelDriver };

const joinNames = (names: string[]) => (names.length < 2 ? (names[0] ?? 'nothing') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * Picks the driver a call runs on: the worker's default when it meets every minimum asked for,
 * otherwise the weakest offered driver that does and works. A call is never run on a weaker
 * driver: when no offered driver meets the minimum, or none that does works, it is refused and
 * the refusal names what asked for the level and what this worker has.
 */
export async function chooseRung(rungs: Rung[], need: IsolationNeed): Promise<Chosen> {
  const asks: { minimum: string; by: string }[] = [];
  if (need.rule) asks.push({ minimum: need.rule.minimum, by: need.rule.ruleId ? `the team policy's rule ${need.rule.ruleId}` : "the team policy's decision" });
  if (need.policyMinimum) asks.push({ minimum: need.policyMinimum, by: "the team policy's rule sandbox.minimumDriver" });
  if (need.wanted && need.wanted !== 'dangerous-none') asks.push({ minimum: need.wanted, by: 'the agent' });
  const strongest = asks.reduce<{ minimum: string; by: string } | null>(
    (best, ask) => (best === null || isolationRank(ask.minimum) > isolationRank(best.minimum) ? ask : best),
    null,
  );
  const [first] = rungs;
  if (!first) return { ok: false, output: 'not run: this worker offers no sandbox driver' };
  if (!strongest || meetsIsolation(first.name, strongest.minimum)) {
    if (need.defaultUnavailable) return { ok: false, output: `not run: sandbox unavailable on this worker: ${need.defaultUnavailable}` };
    return { ok: true, rung: first, probe: await first.probe, minimum: strongest?.minimum ?? null };
  }
  const level = SANDBOX_LEVEL_DRIVERS.find((name) => name === strongest.minimum);
  const candidates = rungs.filter((rung) => meetsIsolation(rung.name, strongest.minimum)).sort((a, b) => isolationRank(a.name) - isolationRank(b.name));
  const refusal = `not run: ${strongest.by} requires the ${strongest.minimum} sandbox or stronger, but this worker runs ${joinNames(rungs.map((r) => r.name))}`;
  if (candidates.length === 0) return { ok: false, output: refusal, ...(level ? { level } : {}) };
  const broken: string[] = [];
  for (const rung of candidates) {
    const probe = await rung.probe;
    if (probe.available) return { ok: true, rung, probe, minimum: strongest.minimum };
    broken.push(`${rung.name}: ${probe.reason ?? 'unknown reason'}`);
  }
  return {
    ok: false,
    ...(level ? { level } : {}),
    output: `not run: ${strongest.by} requires the ${strongest.minimum} sandbox or stronger, and this worker's ${joinNames(candidates.map((r) => r.name))} does not work here (${broken.join('; ')})`,
  };
}

/** The isolation levels calls can get from these working drivers: every level one of them meets. */
export function levelsGiven(working: readonly string[]): SandboxLevelDriver[] {
  return SANDBOX_LEVEL_DRIVERS.filter((level) => working.some((driver) => meetsIsolation(driver, level)));
}
