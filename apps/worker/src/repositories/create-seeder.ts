import type { Queryable } from '@looplane/db';
import type { PolicyDocument } from '@looplane/policy';
import type { WorkspaceManager } from '@looplane/sandbox';
import type { WorkspaceStore } from '@looplane/workspaces';
import { SeedFailure } from './fetch-repository';
import { RepositorySecrets } from './repository-secrets';
import { unpackUpload } from './unpack-upload';
import { WorkspaceSeeder } from './workspace-seeder';
import type { DeliveryDeps } from '../delivery/delivery-tools';

/** What a worker needs to seed workspaces besides its sandbox (LOOPLANE_SEED_MAX_MB, LOOPLANE_SEED_TIMEOUT_S). */
export interface SeedingOptions {
  pool: Queryable;
  encryptionKey: string | undefined;
  store: WorkspaceStore | null;
  maxMb?: number;
  timeoutSeconds?: number;
}

type PolicyReader = ((teamId: string) => Promise<{ document: PolicyDocument }>) | null;

const policyOf = (policy: PolicyReader) => async (teamId: string) => {
  if (!policy) throw new SeedFailure('this worker reads no team policy, so it may reach no repository');
  return (await policy(teamId)).document;
};

/** What the delivery tools need: the same secrets, policy and workspaces as seeding. */
export function deliveryDeps(
  options: SeedingOptions,
  workspaces: WorkspaceManager,
  policy: PolicyReader,
  prepare: (sessionId: string) => Promise<void>,
): DeliveryDeps {
  return {
    pool: options.pool,
    secrets: new RepositorySecrets(options.pool, options.encryptionKey),
    policy: policyOf(policy),
    workspaces,
    prepare: (context) => prepare(context.sessionId),
    timeoutMs: (options.timeoutSeconds ?? 600) * 1000,
  };
}

/** The worker's seeder over its workspaces, policy and team secrets. */
export function createSeeder(options: SeedingOptions, workspaces: WorkspaceManager, policy: PolicyReader): WorkspaceSeeder {
  return new WorkspaceSeeder({
    seedFiles: (sessionId, message, fill) => workspaces.seed(sessionId, message, fill),
    policy: policyOf(policy),
    secrets: new RepositorySecrets(options.pool, options.encryptionKey),
    store: options.store,
    unpackUpload: (teamId, uploadId, workTree) => unpackUpload(options.pool, teamId, uploadId, workTree),
    maxBytes: (options.maxMb ?? 2048) * 1024 * 1024,
    timeoutMs: (options.timeoutSeconds ?? 600) * 1000,
  });
}
