// The worker process's own rows: its sandbox probe (for the Settings page) and the check that its
// database answers at boot.
export { upsertSandboxProbe, touchSandboxProbe, setSandboxProbeDrivers, markSandboxProbeStopped, type SandboxProbeRow } from './sandbox-probe.repository';
export { proveDatabaseConnection } from './connection-check.repository';
