import { readTeamPolicyRows, type HeldPolicyVersions, type Queryable, type TeamPolicyRow } from '@looplane/db';
import { defaultPolicy, policyDocumentSchema, type PolicyDocument } from '@looplane/policy';
import type { Logger } from 'pino';
import { ReadBatcher } from '../runtime/read-batcher';

/** The policy a team's calls are judged by, and the version row it came from (null: the built-in default). */
export interface ActivePolicy {
  document: PolicyDocument;
  versionId: string | null;
  version: number | null;
}

/** A saved version every call is also decided under, never enforced (`shadowId`: which setting of it). */
interface ShadowPolicy {
  document: PolicyDocument;
  versionId: string | null;
  version: number;
  shadowId: string;
}

/** What a team's calls are decided under: the active version, and the shadow when one is set. */
export interface TeamPolicySet {
  active: ActivePolicy;
  shadow: ShadowPolicy | null;
}

/** What a stored document that no longer validates becomes: nothing runs unasked, nothing is allowed. */
const DENY_ALL = policyDocumentSchema.parse({ version: 1, name: 'unreadable', default: 'deny' });
const BUILT_IN: TeamPolicySet = { active: { document: defaultPolicy, versionId: null, version: null }, shadow: null };

/** A team's documents as last read; `rejectedShadow`: a shadow version that does not validate (not sent or logged again). */
interface Held {
  set: TeamPolicySet;
  rejectedShadow: string | null;
  seq: number;
}

/**
 * The worker's one reader of team policies, for every section a decision uses (rules, breakers,
 * approvals, models, sandbox, egress, effects, shadow). Every read asks Postgres for the team's
 * current version pointers, in a statement that starts after the read was asked for, so a
 * decision uses the version active when it is made: a policy saved (committed) before a decision
 * binds it, on every worker, with no invalidation message to lose. What is kept is only the
 * parsed documents, by version row id (a version row never changes, the database refuses it):
 * the statement sends a document only for a version this reader does not hold yet.
 *
 * Reads of many sessions at once go out together ({@link ReadBatcher}: a read waits at most for
 * the statements already in flight, then joins the next one, never one that started before it).
 */
export class PolicyVersions {
  private readonly held = new Map<string, Held>();
  private readonly reads: ReadBatcher<string, TeamPolicySet>;
  private loads = 0;

  constructor(private readonly options: { pool: Queryable; logger: Logger }) {
    this.reads = new ReadBatcher((teamIds) => this.load(teamIds));
  }

  /** The team's active version and shadow, as they are now. */
  async current(teamId: string): Promise<TeamPolicySet> {
    return (await this.reads.get(teamId)) ?? BUILT_IN;
  }

  private async load(teamIds: string[]): Promise<Map<string, TeamPolicySet>> {
    const seq = ++this.loads;
    // What this statement says "you hold" must be what is used to answer it, whatever other loads do meanwhile.
    const sent = new Map(teamIds.map((teamId) => [teamId, this.held.get(teamId) ?? null]));
    const asked: HeldPolicyVersions[] = teamIds.map((teamId) => {
      const held = sent.get(teamId);
      return { teamId, activeId: held?.set.active.versionId ?? null, shadowVersionId: held?.set.shadow?.versionId ?? held?.rejectedShadow ?? null };
    });
    const rows = await readTeamPolicyRows(this.options.pool, asked);
    const found = new Map<string, TeamPolicySet>();
    for (const teamId of teamIds) {
      const row = rows.get(teamId);
      const next = row ? this.heldOf(row, sent.get(teamId) ?? null, seq) : null;
      found.set(teamId, next?.set ?? BUILT_IN);
      // A later statement's answer is never replaced by an earlier one that finished after it.
      const current = this.held.get(teamId);
      if (!current || current.seq < seq) {
        if (next) this.held.set(teamId, next);
        else this.held.delete(teamId);
      }
    }
    return found;
  }

  private heldOf(row: TeamPolicyRow, held: Held | null, seq: number): Held {
    const active = this.activeOf(row, held?.set ?? null);
    const shadow = this.shadowOf(row, held);
    return { set: { active, shadow: shadow.shadow }, rejectedShadow: shadow.rejected, seq };
  }

  private activeOf(row: TeamPolicyRow, held: TeamPolicySet | null): ActivePolicy {
    if (row.activeId === null) return BUILT_IN.active;
    if (held && row.activeId === held.active.versionId && row.activeDocument === null) return held.active;
    const parsed = policyDocumentSchema.safeParse(row.activeDocument);
    if (parsed.success) return { document: parsed.data, versionId: row.activeId, version: row.activeVersion };
    this.options.logger.error(
      { teamId: row.teamId, policyVersionId: row.activeId, issues: parsed.error.issues.slice(0, 5) },
      'the active policy version does not validate; denying every call',
    );
    return { document: DENY_ALL, versionId: row.activeId, version: row.activeVersion };
  }

  /** A shadow whose document no longer validates is left out (logged once): it decides nothing, and nothing depends on it. */
  private shadowOf(row: TeamPolicyRow, held: Held | null): { shadow: ShadowPolicy | null; rejected: string | null } {
    const none = { shadow: null, rejected: null };
    if (row.shadowVersion === null || row.shadowId === null) return none;
    if (row.shadowVersion === 0) return { shadow: { document: defaultPolicy, versionId: null, version: 0, shadowId: row.shadowId }, rejected: null };
    if (row.shadowVersionId === null) return none;
    const unchanged = row.shadowDocument === null;
    const kept = held?.set.shadow;
    if (unchanged && kept && row.shadowVersionId === kept.versionId) return { shadow: { ...kept, shadowId: row.shadowId }, rejected: null };
    if (unchanged && row.shadowVersionId === held?.rejectedShadow) return { shadow: null, rejected: row.shadowVersionId };
    const parsed = policyDocumentSchema.safeParse(row.shadowDocument);
    if (parsed.success)
      return { shadow: { document: parsed.data, versionId: row.shadowVersionId, version: row.shadowVersion, shadowId: row.shadowId }, rejected: null };
    this.options.logger.error(
      { teamId: row.teamId, policyVersionId: row.shadowVersionId, issues: parsed.error.issues.slice(0, 5) },
      'the shadow policy version does not validate; it decides nothing',
    );
    return { shadow: null, rejected: row.shadowVersionId };
  }
}
