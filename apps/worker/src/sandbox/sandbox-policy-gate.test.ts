import { policyDocumentSchema } from '@looplane/policy';
import { resolveLimits, type DriverProbe, type HostCaps, type LimitsReport, type SandboxLimitsInput } from '@looplane/sandbox';
import { describe, expect, it } from 'vitest';
import { gateSandbox, type SandboxGateInput } from './sandbox-policy-gate';

const names = ['wallTimeMs', 'cpus', 'memoryBytes', 'pids', 'outputBytes', 'workspaceBytes', 'workspaceFiles', 'tmpBytes'] as const;
function probe(unenforced: string[] = []): DriverProbe {
  const limitsEnforced = Object.fromEntries(
    names.map((n) => [n, unenforced.includes(n) ? { enforced: false, by: null, note: 'no cgroups' } : { enforced: true, by: 'cgroup-v1' }]),
  ) as LimitsReport;
  return { driver: 'bwrap', available: true, reason: null, limitsEnforced } as DriverProbe;
}
const doc = (sandbox: Record<string, unknown>) => policyDocumentSchema.parse({ version: 1, sandbox });
const GiB = 1024 ** 3;
/** A host roomier than anything these tests ask for, unless a test says otherwise. */
const BIG_HOST: HostCaps = { memoryBytes: 1024 * GiB, cpus: 256, pids: null };

function gate(
  document: ReturnType<typeof doc> | null,
  selected: SandboxGateInput['selected'],
  driverProbe: DriverProbe,
  workerLimits: SandboxLimitsInput | undefined,
  runLimits: SandboxLimitsInput | undefined,
  host: HostCaps = BIG_HOST,
) {
  return gateSandbox({ document, selected, probe: driverProbe, workerLimits, runLimits, host });
}

/** A value above every default and every cap below, for each limit. */
const HIGH: Required<SandboxLimitsInput> = {
  wallTimeMs: 3_600_000,
  cpus: 64,
  memoryBytes: 64 * GiB,
  pids: 100_000,
  outputBytes: 512 * 1024 * 1024,
  workspaceBytes: 512 * GiB,
  workspaceFiles: 10_000_000,
  tmpBytes: 32 * GiB,
};
/** A policy maximum for each limit, below {@link HIGH} and above the schema's minimum. */
const CAPS: Required<SandboxLimitsInput> = {
  wallTimeMs: 10_000,
  cpus: 0.5,
  memoryBytes: 128 * 1024 * 1024,
  pids: 32,
  outputBytes: 4096,
  workspaceBytes: 8 * 1024 * 1024,
  workspaceFiles: 500,
  tmpBytes: 2 * 1024 * 1024,
};

describe('the policy sandbox section on a worker', () => {
  it('refuses a driver below the minimum, naming the rule', () => {
    const result = gate(doc({ minimumDriver: 'podman' }), 'bwrap', probe(), undefined, undefined);
    expect(result).toEqual({
      ok: false,
      output: "not run: the team policy's rule sandbox.minimumDriver requires the podman sandbox or stronger, but this worker runs bwrap",
    });
    expect(gate(doc({}), 'dangerous-none', probe(), undefined, undefined).ok).toBe(false);
    expect(gate(doc({ minimumDriver: 'bwrap' }), 'podman', probe(), undefined, undefined).ok).toBe(true);
  });

  it('caps the run and worker limits at the policy value; lower asks stay lower', () => {
    const result = gate(
      doc({ limits: { memoryBytes: 256 * 1024 * 1024, wallTimeMs: 30_000 } }),
      'bwrap',
      probe(),
      { pids: 64 },
      { memoryBytes: 1024 * 1024 * 1024, wallTimeMs: 5000 },
    );
    expect(result).toMatchObject({ ok: true, limits: { memoryBytes: 256 * 1024 * 1024, wallTimeMs: 5000, pids: 64 } });
  });

  it('refuses when the driver does not enforce a limit the policy sets', () => {
    const result = gate(doc({ limits: { cpus: 0.5 } }), 'bwrap', probe(['cpus']), undefined, undefined);
    expect(result).toEqual({
      ok: false,
      output: "not run: the team policy's rule sandbox.limits.cpus sets a limit the bwrap driver on this worker does not enforce (no cgroups)",
    });
    expect(gate(doc({ limits: { memoryBytes: 256 * 1024 * 1024 } }), 'bwrap', probe(['cpus']), undefined, undefined).ok).toBe(true);
  });

  it('refuses a policy limit the sandbox cannot run with', () => {
    const result = gate(doc({ limits: { memoryBytes: 1024 } }), 'bwrap', probe(), undefined, undefined);
    expect(result).toMatchObject({ ok: false, output: expect.stringContaining('sandbox.limits.memoryBytes is below what the sandbox can run with') });
  });

  it('caps every limit at the policy maximum, whether the worker default or the run set it', () => {
    for (const name of names) {
      const one = { [name]: HIGH[name] } as SandboxLimitsInput;
      for (const [source, workerLimits, runLimits] of [
        ['worker default', one, undefined],
        ['run', undefined, one],
        ['run over a lower worker default', { [name]: CAPS[name] } as SandboxLimitsInput, one],
      ] as const) {
        const result = gate(doc({ limits: { [name]: CAPS[name] } }), 'bwrap', probe(), workerLimits, runLimits);
        expect(result, `${name} from the ${source}`).toMatchObject({ ok: true, limits: { [name]: CAPS[name] } });
      }
    }
    // Every maximum at once: nothing above any of them gets through.
    const all = gate(doc({ limits: CAPS }), 'bwrap', probe(), HIGH, HIGH);
    expect(all).toEqual({ ok: true, limits: CAPS });
  });
});

describe('the host caps on a worker', () => {
  const host: HostCaps = { memoryBytes: 20 * GiB, cpus: 2, pids: null };

  it('lowers memory, the tmpfs and CPUs to the host, with no policy and under a policy that sets no maximum', () => {
    for (const document of [null, doc({})]) {
      const result = gate(document, 'bwrap', probe(), undefined, { memoryBytes: 64 * GiB, cpus: 64, tmpBytes: 32 * GiB, pids: 4096 }, host);
      expect(result).toEqual({
        ok: true,
        limits: { ...resolveLimits({}), memoryBytes: 20 * GiB, cpus: 2, tmpBytes: 20 * GiB, pids: 4096 },
      });
    }
  });

  it('keeps a lower policy maximum and lower asks; caps pids only where the worker is limited', () => {
    const result = gate(
      doc({ limits: { memoryBytes: 4 * GiB } }),
      'bwrap',
      probe(),
      { cpus: 64 },
      { memoryBytes: 64 * GiB, pids: 4096 },
      { ...host, pids: 1000 },
    );
    expect(result).toMatchObject({ ok: true, limits: { memoryBytes: 4 * GiB, cpus: 2, pids: 1000 } });
    expect(gate(null, 'bwrap', probe(), undefined, { memoryBytes: GiB, cpus: 1 }, host)).toMatchObject({ ok: true, limits: { memoryBytes: GiB, cpus: 1 } });
  });
});
