import { admitAndClaim, type AdmissionCandidate, type AdmissionVerdict, type PgPool } from '@looplane/db';

interface Pending {
  candidate: AdmissionCandidate;
  resolve: (verdict: AdmissionVerdict) => void;
  reject: (error: unknown) => void;
}

/**
 * Admission is serialised per team (an advisory lock), so 2,000 runs started together must not
 * cost 2,000 lock round trips: candidates of one team that arrive while a batch is in flight are
 * admitted together in the next transaction.
 */
export class AdmissionBatcher {
  private readonly teams = new Map<string, { queue: Pending[]; busy: boolean }>();

  constructor(
    private readonly pool: PgPool,
    private readonly owner: string,
    private readonly ttlMs: number,
    private readonly maxBatch = 500,
  ) {}

  admit(teamId: string, candidate: AdmissionCandidate): Promise<AdmissionVerdict> {
    return new Promise((resolve, reject) => {
      let team = this.teams.get(teamId);
      if (!team) {
        team = { queue: [], busy: false };
        this.teams.set(teamId, team);
      }
      team.queue.push({ candidate, resolve, reject });
      if (!team.busy) {
        team.busy = true;
        // Let the jobs fetched in the same tick join the batch.
        setImmediate(() => void this.drain(teamId));
      }
    });
  }

  private async drain(teamId: string): Promise<void> {
    const team = this.teams.get(teamId)!;
    while (team.queue.length > 0) {
      const batch = team.queue.splice(0, this.maxBatch);
      try {
        const verdicts = await admitAndClaim(this.pool, teamId, batch.map((p) => p.candidate), this.owner, this.ttlMs);
        batch.forEach((p, i) => p.resolve(verdicts[i]!));
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    team.busy = false;
    this.teams.delete(teamId);
  }
}
