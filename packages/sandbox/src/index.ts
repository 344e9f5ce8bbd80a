// @looplane/sandbox: sandbox drivers, session workspaces, the built-in tools and the egress proxy.
// See README.md for the isolation each driver gives and the attacks the escape suite runs.

// Drivers
export type { SandboxDriver, DriverName, DriverProbe, ExecRequest, ExecResult, KillReason, WorkspaceMount } from './types';
export { BwrapDriver, type BwrapDriverOptions } from './drivers/bwrap.driver';
export { PodmanDriver, type PodmanDriverOptions } from './drivers/podman.driver';
export { PODMAN_RUNTIMES, type PodmanRuntime } from './drivers/podman-args';
export { GvisorDriver, type GvisorDriverOptions } from './drivers/gvisor.driver';
export { MicrovmDriver, type MicrovmDriverOptions } from './drivers/microvm.driver';
export { DangerousNoneDriver, type DangerousNoneOptions } from './drivers/dangerous-none.driver';
export { probeDrivers } from './drivers/probe-drivers';

// Limits
export {
  sandboxLimitsSchema,
  resolveLimits,
  type SandboxLimits,
  type SandboxLimitsInput,
  type LimitsReport,
  type LimitEnforcement,
  type Enforcement,
  type LimitName,
} from './limits';
export { capToHost, readHostCaps, type HostCaps } from './host-caps';

// Workspaces
export {
  WorkspaceManager,
  type Workspace,
  type WorkspaceOwners,
  type WorkspaceManagerOptions,
  type WorkspaceSnapshot,
  type EffectGate,
  type HeldCommit,
  type KeptCommit,
} from './workspace/workspace-manager';
export { effectBetween, recordedEffect, RECORDED_CHANGES } from './workspace/workspace-effect';

// Tools
export { createSandboxTools, type SandboxToolsOptions } from './tools/create-sandbox-tools';
export type { SandboxTool, SandboxToolResult, SandboxToolCall } from './tools/tool';

// Egress
export {
  startEgressProxy,
  type EgressProxy,
  type EgressProxyOptions,
  type EgressDecision,
  type EgressRequest,
  type EgressVerdict,
} from './egress/egress-proxy';
export { egressPolicySchema, type EgressPolicy, type EgressPolicyInput } from './egress/egress-policy';
