import type { Db, Tx } from '@looplane/db';
import type { PolicyDocument } from '@looplane/policy';
import { AppError } from '@looplane/shared';
import type { SandboxSettings } from '../routers/agents.schema';
import { activePolicyVersion } from './policy-gates';

const MiB = 1024 * 1024;

/**
 * The template fields that set a sandbox limit, the policy limit each one becomes in the run's
 * config (see run-config.ts), and how a value of each is said to a person.
 */
const FIELDS = [
  { field: 'timeoutMs', limit: 'wallTimeMs', toLimit: (v: number) => v, fromLimit: (cap: number) => cap, unit: 'ms' },
  { field: 'memoryMb', limit: 'memoryBytes', toLimit: (v: number) => v * MiB, fromLimit: (cap: number) => Math.floor(cap / MiB), unit: 'MiB' },
  { field: 'cpus', limit: 'cpus', toLimit: (v: number) => v, fromLimit: (cap: number) => cap, unit: 'CPUs' },
  // The run's config never gives a sandbox fewer than 8 pids (its helpers need them).
  { field: 'pids', limit: 'pids', toLimit: (v: number) => Math.max(8, v), fromLimit: (cap: number) => cap, unit: 'processes' },
] as const;

/**
 * Why `sandbox` asks for more than the policy's `sandbox.limits` maximums allow (the first field
 * over, naming the template field, its value, the policy's limit and its cap), or null.
 */
function sandboxOverPolicy(document: PolicyDocument, sandbox: SandboxSettings): string | null {
  for (const { field, limit, toLimit, fromLimit, unit } of FIELDS) {
    const value = sandbox[field];
    const cap = document.sandbox.limits[limit];
    if (value === undefined || cap === undefined || toLimit(value) <= cap) continue;
    const raw = limit === 'memoryBytes' ? ` (${cap} bytes)` : '';
    return `sandbox.${field} is ${value} ${unit}, above the team policy's maximum sandbox.limits.${limit} of ${fromLimit(cap)} ${unit}${raw}; ask for at most ${fromLimit(cap)} ${unit}, or an admin can raise the maximum on the Policies page`;
  }
  return null;
}

/**
 * Refuses (400) templates whose sandbox asks for more than the team's active policy allows, in
 * one read of the policy. The worker lowers every call's limits to the policy's maximums anyway
 * (and to its host's caps); this tells whoever saves the template at once, instead of a run
 * quietly getting less. `where` names a template in a graph's message ("node review (agent reviewer)").
 */
export async function assertSandboxesWithinPolicy(
  db: Db | Tx,
  teamId: string,
  templates: readonly { sandbox: SandboxSettings; where?: string }[],
): Promise<void> {
  const limited = templates.filter(({ sandbox }) => FIELDS.some(({ field }) => sandbox[field] !== undefined));
  if (limited.length === 0) return;
  const { document } = await activePolicyVersion(db, teamId);
  if (!document) {
    throw new AppError(
      'PRECONDITION_FAILED',
      "The team's active policy does not validate, so sandbox limits cannot be checked against it; fix it on the Policies page",
    );
  }
  for (const { sandbox, where } of limited) {
    const problem = sandboxOverPolicy(document, sandbox);
    if (problem) throw new AppError('BAD_REQUEST', where ? `${where}: ${problem}` : problem);
  }
}
