import { appendAudit, type AuditActor, type Db, type SecretBox } from '@looplane/db';
import { AppError } from '@looplane/shared';
import type { CreateSecretInput } from '../routers/secrets.schema';
import { getActivePolicy } from './policies.service';

type Actor = AuditActor & { userId: string };

/** The columns a secret shows through the API: never the value or its sealed form. */
const publicColumns = {
  id: true,
  name: true,
  kind: true,
  username: true,
  forge: true,
  apiUrl: true,
  last4: true,
  createdAt: true,
  updatedAt: true,
} as const;

/**
 * The last 4 characters shown again: of the value, or for an ssh key of its base64 body (the
 * armour's last characters would be the same for every key).
 */
function last4Of(input: CreateSecretInput): string {
  if (input.kind !== 'ssh_key') return input.value.slice(-4);
  const body = input.value.trim().split('\n').slice(0, -1).join('');
  return body.slice(-4);
}

/**
 * The team's secrets with where the active policy uses them (`egress.credentials` entries naming
 * each), and the references the policy makes to secrets that do not exist: the egress proxy
 * refuses those hosts until the secret is created.
 */
export async function listSecrets(db: Db, teamId: string) {
  const [rows, policy] = await Promise.all([
    db.teamSecret.findMany({ where: { teamId }, select: publicColumns, orderBy: { name: 'asc' } }),
    getActivePolicy(db, teamId),
  ]);
  const uses = policy.document.egress.credentials;
  const names = new Set(rows.map((row) => row.name));
  return {
    secrets: rows.map((row) => ({ ...row, usedBy: uses.filter((c) => c.secretRef === row.name).map(({ host, header }) => ({ host, header })) })),
    missing: uses.filter((c) => !names.has(c.secretRef)).map(({ secretRef, host, header }) => ({ secretRef, host, header })),
    policyVersion: policy.version,
  };
}

/**
 * Stores a secret sealed with AES-256-GCM (LOOPLANE_ENCRYPTION_KEY). An existing name is refused
 * unless `replace` (rotation), which sets the kind and the token's settings anew as well (what the
 * input leaves out is cleared). The audit row names the secret and its kind, never its value.
 */
export async function createSecret(db: Db, box: SecretBox | null, actor: Actor, teamId: string, input: CreateSecretInput, ip: string | null) {
  if (!box) throw new AppError('PRECONDITION_FAILED', 'This server has no LOOPLANE_ENCRYPTION_KEY, so it cannot store secrets');
  const sealed = {
    kind: input.kind,
    username: input.username ?? null,
    forge: input.forge ?? null,
    apiUrl: input.apiUrl ?? null,
    ciphertext: box.seal(input.value),
    last4: last4Of(input),
  };
  return db.$transaction(async (tx) => {
    const existing = await tx.teamSecret.findUnique({ where: { teamId_name: { teamId, name: input.name } }, select: { id: true } });
    if (existing && !input.replace) throw new AppError('CONFLICT', `A secret named ${input.name} already exists; replace it to set a new value`);
    const row = existing
      ? await tx.teamSecret.update({ where: { id: existing.id }, data: sealed, select: publicColumns })
      : await tx.teamSecret.create({ data: { teamId, name: input.name, createdById: actor.userId, ...sealed }, select: publicColumns });
    await appendAudit(tx, {
      teamId,
      actor,
      ip,
      action: existing ? 'secret.replaced' : 'secret.created',
      targetType: 'secret',
      targetId: row.id,
      data: { name: row.name, kind: row.kind, ...(row.forge ? { forge: row.forge } : {}) },
    });
    return row;
  });
}

/** Deletes a secret; hosts whose policy credential names it are refused by the egress proxy from then on. */
export async function deleteSecret(db: Db, actor: Actor, teamId: string, name: string, ip: string | null) {
  return db.$transaction(async (tx) => {
    const row = await tx.teamSecret.findUnique({ where: { teamId_name: { teamId, name } }, select: { id: true } });
    if (!row) throw new AppError('NOT_FOUND', `No secret named ${name} in this team`);
    await tx.teamSecret.delete({ where: { id: row.id } });
    await appendAudit(tx, { teamId, actor, ip, action: 'secret.deleted', targetType: 'secret', targetId: row.id, data: { name } });
    return { name, deleted: true };
  });
}
