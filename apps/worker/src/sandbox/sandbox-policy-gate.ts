import { isDriverAllowed, type PolicyDocument } from '@looplane/policy';
import {
  resolveLimits,
  sandboxLimitsSchema,
  type DriverName,
  type DriverProbe,
  type LimitName,
  type SandboxLimits,
  type SandboxLimitsInput,
} from '@looplane/sandbox';

/** What a tool call runs with under the team policy's sandbox section, or why it may not run. */
export type SandboxGate = { ok: true; limits: SandboxLimits } | { ok: false; output: string };

/**
 * Applies the policy's `sandbox` section to one call on this worker:
 * - `sandbox.minimumDriver`: a worker whose driver is weaker (or `dangerous-none`) runs nothing.
 * - `sandbox.limits`: caps. The call's limits are the worker's defaults, then the run's, each
 *   lowered to the policy's value where it sets one (a run or template can ask for less, never
 *   more). A limit the policy sets must be one this worker's driver enforces (per its probe):
 *   otherwise the call is refused, since a cap nobody holds is no cap.
 * Refusals name the policy rule, so the model and the operator see what to change.
 */
export function gateSandbox(
  document: PolicyDocument,
  selected: DriverName,
  probe: DriverProbe,
  workerLimits: SandboxLimitsInput | undefined,
  runLimits: SandboxLimitsInput | undefined,
): SandboxGate {
  const minimum = document.sandbox.minimumDriver;
  if (!isDriverAllowed(document, selected)) {
    return {
      ok: false,
      output: `not run: the team policy's rule sandbox.minimumDriver requires the ${minimum} sandbox or stronger, but this worker runs ${selected}`,
    };
  }
  const capped: Record<string, number> = { ...resolveLimits({ ...workerLimits, ...runLimits }) };
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
  const parsed = sandboxLimitsSchema.safeParse(capped);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'limits');
    return {
      ok: false,
      output: `not run: the team policy's rule sandbox.limits.${field} is below what the sandbox can run with (${parsed.error.issues[0]?.message ?? 'invalid'})`,
    };
  }
  return { ok: true, limits: parsed.data };
}
