import { isDriverAllowed, type PolicyDocument } from '@looplane/policy';
import {
  capToHost,
  resolveLimits,
  sandboxLimitsSchema,
  type DriverName,
  type DriverProbe,
  type HostCaps,
  type LimitName,
  type SandboxLimits,
  type SandboxLimitsInput,
} from '@looplane/sandbox';

/** What a tool call runs with under the team policy's sandbox section and the host's caps, or why it may not run. */
export type SandboxGate = { ok: true; limits: SandboxLimits } | { ok: false; output: string };

/** One call's inputs to {@link gateSandbox}. */
export interface SandboxGateInput {
  /** The team's active policy; null where the worker has no policy source (the sandbox's own tests). */
  document: PolicyDocument | null;
  selected: DriverName;
  probe: DriverProbe;
  /** The worker's defaults for limits a run does not set. */
  workerLimits?: SandboxLimitsInput | undefined;
  /** The run's limits (from its agent template, recorded in its config). */
  runLimits?: SandboxLimitsInput | undefined;
  /** This host's caps (see `readHostCaps`): they hold with or without a policy. */
  host: HostCaps;
}

/**
 * Applies the policy's `sandbox` section and the host's caps to one call on this worker:
 * - `sandbox.minimumDriver`: a worker whose driver is weaker (or `dangerous-none`) runs nothing.
 * - `sandbox.limits`: maximums. The call's limits are the worker's defaults, then the run's, each
 *   lowered to the policy's value where it sets one (a run or template can ask for less, never
 *   more), whichever source set the value. A limit the policy sets must be one this worker's
 *   driver enforces (per its probe): otherwise the call is refused, since a cap nobody holds is
 *   no cap.
 * - the host's caps: memory, CPUs (and pids where the worker's cgroup limits them) are then
 *   lowered to what this host can give, policy or not, so no template can ask a sandbox for more
 *   than the machine has.
 * Refusals name the policy rule, so the model and the operator see what to change.
 */
export function gateSandbox(input: SandboxGateInput): SandboxGate {
  const { document, selected, probe } = input;
  const capped: Record<string, number> = { ...resolveLimits({ ...input.workerLimits, ...input.runLimits }) };
  if (document) {
    if (!isDriverAllowed(document, selected)) {
      return {
        ok: false,
        output: `not run: the team policy's rule sandbox.minimumDriver requires the ${document.sandbox.minimumDriver} sandbox or stronger, but this worker runs ${selected}`,
      };
    }
    for (const [name, cap] of Object.entries(document.sandbox.limits) as [LimitName, number | undefined][]) {
      if (cap === undefined) continue;
      const enforcement = probe.limitsEnforced[name];
      if (!enforcement?.enforced) {
        const note = enforcement?.note ? ` (${enforcement.note})` : '';
        return {
          ok: false,
          output: `not run: the team policy's rule sandbox.limits.${name} sets a limit the ${selected} driver on this worker does not enforce${note}`,
        };
      }
      capped[name] = Math.min(capped[name] ?? cap, cap);
    }
  }
  const parsed = sandboxLimitsSchema.safeParse(capped);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'limits');
    return {
      ok: false,
      output: `not run: the team policy's rule sandbox.limits.${field} is below what the sandbox can run with (${parsed.error.issues[0]?.message ?? 'invalid'})`,
    };
  }
  return { ok: true, limits: capToHost(parsed.data, input.host) };
}
