import { activePolicyRow, type Db, type Tx } from '@looplane/db';
import { defaultPolicy, isEndpointAllowed, policyDocumentSchema, type PolicyDocument } from '@looplane/policy';
import { AppError } from '@looplane/shared';
import { TEAM_POLICY_NAME } from './policies.service';
import { queryableOf } from '@looplane/db';

/** One agent a run would start, and the model endpoint it calls. */
export interface EndpointUse {
  agentName: string;
  endpointName: string;
  /** The graph node, for a swarm run. */
  node?: string;
}

/** The team's active policy: its document (null: the stored one no longer validates) and the version row it came from (null: the built-in default). */
export interface ActivePolicyVersion {
  document: PolicyDocument | null;
  versionId: string | null;
  version: number | null;
}

/**
 * The team's active policy in one read (the built-in default while the team has none). A stored
 * document that no longer validates allows nothing, as in the worker.
 */
export async function activePolicyVersion(db: Db | Tx, teamId: string): Promise<ActivePolicyVersion> {
  const row = await activePolicyRow(queryableOf(db), teamId, TEAM_POLICY_NAME);
  if (!row) return { document: defaultPolicy, versionId: null, version: null };
  const parsed = policyDocumentSchema.safeParse(row.document);
  return { document: parsed.success ? parsed.data : null, versionId: row.id, version: row.version };
}

async function activeDocument(db: Db, teamId: string): Promise<PolicyDocument | null> {
  return (await activePolicyVersion(db, teamId)).document;
}

/**
 * Refuses a run whose agents call a model endpoint the team's active policy does not allow
 * (`models.allowedEndpoints`), before anything is written. The worker checks again before every
 * model call, since the policy may change while the run lives.
 */
export async function assertEndpointsAllowed(db: Db, teamId: string, uses: readonly EndpointUse[]): Promise<void> {
  const document = await activeDocument(db, teamId);
  if (!document) throw new AppError('PRECONDITION_FAILED', "The team's active policy does not validate, so nothing may run; fix it on the Policies page");
  for (const use of uses) {
    if (isEndpointAllowed(document, use.endpointName)) continue;
    const who = use.node ? `agent ${use.agentName} (node ${use.node})` : `agent ${use.agentName}`;
    throw new AppError(
      'PRECONDITION_FAILED',
      `The team policy does not allow the model endpoint ${use.endpointName} of ${who} (models.allowedEndpoints); an admin can allow it on the Policies page, or move the agent to an allowed endpoint`,
    );
  }
}
