import { admitAndClaim, type AdmissionCandidate, type AdmissionVerdict, type PgPool } from '@looplane/db';

interface Pending {
  candidate: AdmissionCandidate;
  resolve: (verdict: AdmissionVerdict) => void;
  reject: (error: unknown) => void;
}

/**
 * Admission is serialised per team (an advisory lock), so 2,000 runs started together must not
 * cost 2,000 lock round trips: candidates of one team that arrive while batches are in flight are
 * admitted together in the next transaction. Two transactions per team may be in flight, so the
 * next one is already waiting on the lock when the current one commits.
 */
export class AdmissionBatcher {
  private readonly teams = new Map<string, { queue: Pending[]; running: number }>();

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
        team = { queue: [], running: 0 };
        this.teams.set(teamId, team);
      }
      team.queue.push({ candidate, resolve, reject });
      this.pump(teamId, team);
    });
  }

  private pump(teamId: string, team: { queue: Pending[]; running: number }): void {
    while (team.running < 2 && team.queue.length > 0) {
      const batch = team.queue.splice(0, this.maxBatch);
      team.running++;
      admitAndClaim(
        this.pool,
        teamId,
        batch.map((p) => p.candidate),
        this.owner,
        this.ttlMs,
      )
        .then(
          (verdicts) => {
            for (const [i, p] of batch.entries()) p.resolve(verdicts[i]!);
          },
          (error: unknown) => {
            for (const p of batch) p.reject(error);
          },
        )
        .finally(() => {
          team.running--;
          if (team.running === 0 && team.queue.length === 0) this.teams.delete(teamId);
          else this.pump(teamId, team);
        });
    }
  }
}
