import type { PgPool } from '@looplane/db';
import { z } from 'zod';
import { PostgresWorkspaceStore } from './postgres.store';
import { S3WorkspaceStore } from './s3.store';
import type { WorkspaceStore } from './workspace-store';

const optional = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * The store settings, for the env modules of every process that reads or writes workspaces (the
 * worker, the web app, `looplane worker`): spread into their zod object. Credentials for s3 come
 * from the standard AWS variables.
 */
export const workspaceStoreEnv = {
  /** Where session files are stored of record: postgres (default) or s3. */
  LOOPLANE_WORKSPACE_STORE: optional.pipe(z.enum(['postgres', 's3'], 'must be postgres or s3').optional()).transform((v) => v ?? 'postgres'),
  LOOPLANE_S3_ENDPOINT: optional.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  LOOPLANE_S3_BUCKET: optional.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)')
      .optional(),
  ),
  LOOPLANE_S3_PREFIX: optional
    .pipe(
      z
        .string()
        .max(200, 'must be at most 200 characters')
        .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "must use only letters, digits and !_.*'()/-")
        .optional(),
    )
    .transform((p) => p ?? 'looplane/'),
  LOOPLANE_S3_REGION: optional.transform((r) => r ?? 'us-east-1'),
  AWS_ACCESS_KEY_ID: optional,
  AWS_SECRET_ACCESS_KEY: optional,
  AWS_SESSION_TOKEN: optional,
};

const storeEnvSchema = z.object(workspaceStoreEnv);
export type WorkspaceStoreEnv = z.infer<typeof storeEnvSchema>;

/** The problem with the store settings, or null (an s3 store needs a bucket). For the env modules' superRefine. */
export function workspaceStoreProblem(env: WorkspaceStoreEnv): { variable: string; message: string } | null {
  if (env.LOOPLANE_WORKSPACE_STORE === 's3' && !env.LOOPLANE_S3_BUCKET)
    return { variable: 'LOOPLANE_S3_BUCKET', message: 'is required when LOOPLANE_WORKSPACE_STORE is s3' };
  return null;
}

/** The configured store. The pool is the process's Postgres pool (the pack index lives there for both drivers). */
export function createWorkspaceStore(env: WorkspaceStoreEnv, pool: PgPool): WorkspaceStore {
  if (env.LOOPLANE_WORKSPACE_STORE === 'postgres') return new PostgresWorkspaceStore(pool);
  return new S3WorkspaceStore(pool, {
    bucket: env.LOOPLANE_S3_BUCKET ?? '',
    prefix: env.LOOPLANE_S3_PREFIX,
    region: env.LOOPLANE_S3_REGION,
    ...(env.LOOPLANE_S3_ENDPOINT ? { endpoint: env.LOOPLANE_S3_ENDPOINT } : {}),
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {}),
  });
}
