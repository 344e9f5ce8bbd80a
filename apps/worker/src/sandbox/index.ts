export { WorkerSandbox, type WorkerSandboxOptions } from './worker-sandbox';
export { recordSandboxProbe, type SandboxProbeRecord, type ProbeStore } from './probe-store';
export { egressAllowlist } from './egress-hosts';
