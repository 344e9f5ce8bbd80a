import { appendAudit, type AuditActor, type Db, type Prisma, type SecretBox } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { OutboundPolicy } from '@looplane/shared/net';
import type { CreateEndpointInput, UpdateEndpointInput } from '../routers/endpoints.schema';
import { checkEndpointAddress } from './endpoint-address';

type Actor = AuditActor & { userId: string };

/** The columns an endpoint shows through the API: never the key, only whether there is one and its last 4 characters. */
const publicColumns = {
  id: true,
  name: true,
  kind: true,
  baseUrl: true,
  model: true,
  keyLast4: true,
  inputMicrosPerMTok: true,
  outputMicrosPerMTok: true,
  contextWindow: true,
  maxOutputTokens: true,
  timeoutMs: true,
  maxRetries: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ModelEndpointSelect;

function seal(box: SecretBox | null, key: string): { keyCiphertext: string; keyLast4: string } {
  if (!box) throw new AppError('PRECONDITION_FAILED', 'This server has no LOOPLANE_ENCRYPTION_KEY, so it cannot store API keys');
  return { keyCiphertext: box.seal(key), keyLast4: key.slice(-4) };
}

/** The settings an audit row keeps: what changed, never the key (only that it changed). */
function auditedSettings(input: Partial<CreateEndpointInput> & { teamId?: string }): Record<string, unknown> {
  const { apiKey, teamId: _teamId, ...rest } = input;
  return { ...rest, ...(apiKey !== undefined ? { keyChanged: true } : {}) };
}

/** Live endpoints of the team, with the agent templates using each (so the page can explain a refused delete). */
export async function listEndpoints(db: Db, teamId: string) {
  const rows = await db.modelEndpoint.findMany({
    where: { teamId, deletedAt: null },
    select: { ...publicColumns, agents: { where: { archivedAt: null }, select: { id: true, name: true }, orderBy: { name: 'asc' } } },
    orderBy: { name: 'asc' },
  });
  return rows.map(({ keyLast4, ...row }) => ({ ...row, hasKey: keyLast4 !== null, keyLast4 }));
}

/** The team's endpoint, unless deleted; NOT_FOUND otherwise (also for another team's id). */
export async function liveEndpoint(db: Db | Prisma.TransactionClient, teamId: string, endpointId: string) {
  const row = await db.modelEndpoint.findFirst({ where: { id: endpointId, teamId, deletedAt: null } });
  if (!row) throw new AppError('NOT_FOUND', 'No such model endpoint in this team');
  return row;
}

/**
 * Creates an endpoint; its key (if any) is sealed with AES-256-GCM before it reaches the database.
 * Its base URL must point where model endpoints may connect (`addresses`).
 */
export async function createEndpoint(
  db: Db,
  box: SecretBox | null,
  addresses: OutboundPolicy,
  actor: Actor,
  teamId: string,
  input: CreateEndpointInput,
  ip: string | null,
) {
  // tRPC merges the team input into ours; the team comes from the context only.
  const { apiKey, teamId: _teamId, ...fields } = input as CreateEndpointInput & { teamId?: string };
  if (fields.baseUrl !== undefined) await checkEndpointAddress(fields.baseUrl, addresses);
  const sealed = apiKey ? seal(box, apiKey) : {};
  return db.$transaction(async (tx) => {
    const row = await tx.modelEndpoint.create({ data: { teamId, ...fields, baseUrl: fields.baseUrl ?? null, ...sealed }, select: publicColumns });
    await appendAudit(tx, { teamId, actor, ip, action: 'endpoint.created', targetType: 'endpoint', targetId: row.id, data: auditedSettings(input) });
    return { ...row, hasKey: row.keyLast4 !== null };
  });
}

/** Whether two base URLs are the same place (after URL normalisation: `HTTP://Host:80/v1` is `http://host/v1`). */
const sameUrl = (a: string, b: string | null) => b !== null && URL.canParse(b) && new URL(a).href === new URL(b).href;

/**
 * Changes the given fields (a new key replaces the old one); a faux endpoint takes no URL or key.
 * A stored key goes only to the base URL it was entered for: a new base URL drops it unless a key
 * is given in the same update (otherwise an admin could point the endpoint at a server of theirs
 * and have the next test or run hand them the key). The answer and the audit row say so
 * (`keyDropped`).
 */
export async function updateEndpoint(
  db: Db,
  box: SecretBox | null,
  addresses: OutboundPolicy,
  actor: Actor,
  teamId: string,
  input: UpdateEndpointInput,
  ip: string | null,
) {
  const { endpointId, apiKey, teamId: _teamId, ...fields } = input as UpdateEndpointInput & { teamId?: string };
  if (fields.baseUrl !== undefined) await checkEndpointAddress(fields.baseUrl, addresses);
  return db.$transaction(async (tx) => {
    const current = await liveEndpoint(tx, teamId, endpointId);
    if (current.kind === 'faux' && (apiKey !== undefined || fields.baseUrl !== undefined)) {
      throw new AppError('BAD_REQUEST', 'a faux endpoint takes no base URL or key');
    }
    const keyDropped = fields.baseUrl !== undefined && apiKey === undefined && current.keyCiphertext !== null && !sameUrl(fields.baseUrl, current.baseUrl);
    const sealed = apiKey ? seal(box, apiKey) : keyDropped ? { keyCiphertext: null, keyLast4: null } : {};
    const row = await tx.modelEndpoint.update({ where: { id: endpointId }, data: { ...fields, ...sealed }, select: publicColumns });
    const changes = auditedSettings({ ...fields, ...(apiKey !== undefined ? { apiKey } : {}) });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: 'endpoint.updated',
      targetType: 'endpoint',
      targetId: endpointId,
      data: { name: row.name, changes: keyDropped ? { ...changes, keyDropped: true } : changes },
    });
    return { ...row, hasKey: row.keyLast4 !== null, keyDropped };
  });
}

/**
 * Deletes an endpoint no agent template uses. The row is kept (runs that used it still name it)
 * but marked deleted and renamed, so its name is free for a new endpoint; its key is wiped.
 */
export async function deleteEndpoint(db: Db, actor: Actor, teamId: string, endpointId: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const current = await liveEndpoint(tx, teamId, endpointId);
    const users = await tx.agentTemplate.findMany({ where: { endpointId, archivedAt: null }, select: { name: true }, orderBy: { name: 'asc' }, take: 11 });
    if (users.length > 0) {
      const names = users
        .slice(0, 10)
        .map((a) => a.name)
        .join(', ');
      throw new AppError(
        'CONFLICT',
        `Endpoint ${current.name} is used by agent template${users.length > 1 ? 's' : ''} ${names}${users.length > 10 ? ', …' : ''}; move them to another endpoint first`,
      );
    }
    const deletedAt = new Date();
    await tx.modelEndpoint.update({
      where: { id: endpointId },
      data: { deletedAt, name: `${current.name} (deleted ${deletedAt.toISOString()} ${current.id})`, keyCiphertext: null },
    });
    await appendAudit(tx, { teamId, actor, ip, action: 'endpoint.deleted', targetType: 'endpoint', targetId: endpointId, data: { name: current.name } });
    return { id: endpointId, deleted: true };
  });
}
