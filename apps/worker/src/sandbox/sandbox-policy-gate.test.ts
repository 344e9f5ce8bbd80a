import { policyDocumentSchema } from '@looplane/policy';
import type { DriverProbe, LimitsReport } from '@looplane/sandbox';
import { describe, expect, it } from 'vitest';
import { gateSandbox } from './sandbox-policy-gate';

const names = ['wallTimeMs', 'cpus', 'memoryBytes', 'pids', 'outputBytes', 'workspaceBytes', 'workspaceFiles', 'tmpBytes'] as const;
function probe(unenforced: string[] = []): DriverProbe {
  const limitsEnforced = Object.fromEntries(
    names.map((n) => [n, unenforced.includes(n) ? { enforced: false, by: null, note: 'no cgroups' } : { enforced: true, by: 'cgroup-v1' }]),
  ) as LimitsReport;
  return { driver: 'bwrap', available: true, reason: null, limitsEnforced } as DriverProbe;
}
const doc = (sandbox: Record<string, unknown>) => policyDocumentSchema.parse({ version: 1, sandbox });

describe('the policy sandbox section on a worker', () => {
  it('refuses a driver below the minimum, naming the rule', () => {
    const gate = gateSandbox(doc({ minimumDriver: 'podman' }), 'bwrap', probe(), undefined, undefined);
    expect(gate).toEqual({
      ok: false,
      output: "not run: the team policy's rule sandbox.minimumDriver requires the podman sandbox or stronger, but this worker runs bwrap",
    });
    expect(gateSandbox(doc({}), 'dangerous-none', probe(), undefined, undefined).ok).toBe(false);
    expect(gateSandbox(doc({ minimumDriver: 'bwrap' }), 'podman', probe(), undefined, undefined).ok).toBe(true);
  });

  it('caps the run and worker limits at the policy value; lower asks stay lower', () => {
    const gate = gateSandbox(
      doc({ limits: { memoryBytes: 256 * 1024 * 1024, wallTimeMs: 30_000 } }),
      'bwrap',
      probe(),
      { pids: 64 },
      { memoryBytes: 1024 * 1024 * 1024, wallTimeMs: 5000 },
    );
    expect(gate).toMatchObject({ ok: true, limits: { memoryBytes: 256 * 1024 * 1024, wallTimeMs: 5000, pids: 64 } });
  });

  it('refuses when the driver does not enforce a limit the policy sets', () => {
    const gate = gateSandbox(doc({ limits: { cpus: 0.5 } }), 'bwrap', probe(['cpus']), undefined, undefined);
    expect(gate).toEqual({
      ok: false,
      output: "not run: the team policy's rule sandbox.limits.cpus sets a limit the bwrap driver on this worker does not enforce (no cgroups)",
    });
    expect(gateSandbox(doc({ limits: { memoryBytes: 256 * 1024 * 1024 } }), 'bwrap', probe(['cpus']), undefined, undefined).ok).toBe(true);
  });

  it('refuses a policy limit the sandbox cannot run with', () => {
    const gate = gateSandbox(doc({ limits: { memoryBytes: 1024 } }), 'bwrap', probe(), undefined, undefined);
    expect(gate).toMatchObject({ ok: false, output: expect.stringContaining('sandbox.limits.memoryBytes is below what the sandbox can run with') });
  });
});
