import type { Role } from '@looplane/shared';
import type { ToolInvocation } from './tool-port';

export type PolicyDecision =
  | { decision: 'allow'; ruleId?: string }
  | { decision: 'deny'; reason: string; ruleId?: string }
  | { decision: 'require_approval'; role: Role; reason?: string; ruleId?: string; risk?: 'low' | 'medium' | 'high' };

/** Decides whether a tool call (including `delegate`) may run. Policy code lives behind this port. */
export interface PolicyPort {
  evaluate(call: ToolInvocation, options?: { signal?: AbortSignal }): Promise<PolicyDecision>;
}
