import type { Role, SandboxLevelDriver } from '@looplane/shared';
import type { BreakerTrip } from '../events/breaker-trip';
import type { ToolInvocation } from './tool-port';

export type PolicyDecision =
  /** `breaker`: the policy allows the call, but a breaker tripped: the session pauses for an approver before it runs. */
  | { decision: 'allow'; ruleId?: string; breaker?: BreakerTrip & { reason: string }; isolation?: SandboxLevelDriver }
  | { decision: 'deny'; reason: string; ruleId?: string }
  | { decision: 'require_approval'; role: Role; reason?: string; ruleId?: string; risk?: 'low' | 'medium' | 'high'; isolation?: SandboxLevelDriver };

/** Decides whether a tool call (including `delegate`) may run. Policy code lives behind this port. */
export interface PolicyPort {
  evaluate(call: ToolInvocation, options?: { signal?: AbortSignal }): Promise<PolicyDecision>;
}
