import 'server-only';
import { createDispatch, uploadLimits, type ApiDeps, type Dispatch, type StreamDeps } from '@looplane/api';
import { createPgPool, SecretBox } from '@looplane/db';
import { createSessionQueue, LiveBus } from '@looplane/queue';
import { createWorkspaceStore, WorkspaceReader } from '@looplane/workspaces';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { env } from '@/env';
import { db } from './db';
import { logger } from './logger';
import { redis } from './redis';

interface Live {
  bus: LiveBus;
  dispatch: Dispatch;
}

// One live bus (one subscriber connection shared by every stream) and one queue producer per
// process; on globalThis so `next dev` reloads do not open new connections on every edit.
const holder = globalThis as typeof globalThis & { __looplaneLive?: Live };

function live(): Live {
  if (!holder.__looplaneLive) {
    // Subscribe mode needs a connection of its own; it re-subscribes by itself after a reconnect.
    const subscriber = new Redis(env().REDIS_URL, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(attempt * 200, 2000) });
    subscriber.on('error', () => undefined); // the shared connection logs the outage once
    const bus = new LiveBus(redis(), subscriber);
    const prefix = env().QUEUE_PREFIX;
    const queue = createSessionQueue(redis(), prefix ? { prefix } : {});
    const dispatch = createDispatch(queue, bus, {
      onError: (error, what) => logger().warn({ err: error instanceof Error ? error.message : String(error) }, `after-commit side effect failed: ${what}`),
    });
    holder.__looplaneLive = { bus, dispatch };
  }
  return holder.__looplaneLive;
}

/** What the tRPC API (and the workspace download) needs: the database, the after-commit dispatch, the keys, the files. */
export function apiDeps(): ApiDeps {
  const e = env();
  return {
    db: db(),
    dispatch: live().dispatch,
    secretBox: secretBox(),
    workspaces: workspaces(),
    runLimits: { perMinute: e.LOOPLANE_RUNS_PER_MINUTE, maxQueued: e.LOOPLANE_MAX_QUEUED_RUNS },
    webhooks: { allowPrivate: e.LOOPLANE_WEBHOOKS_ALLOW_PRIVATE },
    endpointsAllow: e.LOOPLANE_ENDPOINTS_ALLOW,
    uploads: uploadLimits(e.LOOPLANE_UPLOAD_MAX_MB),
  };
}

// One reader per process (its cache directory and per-run locks are its own), on globalThis for
// the same reason as the live bus.
const readerHolder = globalThis as typeof globalThis & { __looplaneWorkspaces?: WorkspaceReader };

/**
 * Session files for `sessions.files`, `sessions.diff` and the workspace download, read from the
 * workspace store (the workers write every commit there); nothing is read from a worker's disk.
 * Its cache is `<LOOPLANE_HOME>/web-cache/workspaces`, or a temp dir of this process's own.
 */
function workspaces(): WorkspaceReader {
  if (!readerHolder.__looplaneWorkspaces) {
    const e = env();
    // The store's pack index lives in Postgres for both drivers; a small pool of its own, apart from Prisma's.
    const pool = createPgPool(e.DATABASE_URL, { max: 4, onError: (error) => logger().warn({ err: error.message }, 'workspace store pool error') });
    const cacheDir = e.LOOPLANE_HOME ? join(e.LOOPLANE_HOME, 'web-cache', 'workspaces') : mkdtempSync(join(tmpdir(), 'looplane-web-workspaces-'));
    readerHolder.__looplaneWorkspaces = new WorkspaceReader({ store: createWorkspaceStore(e, pool), cacheDir, cacheMb: e.LOOPLANE_WORKSPACE_CACHE_MB });
  }
  return readerHolder.__looplaneWorkspaces;
}

let box: SecretBox | null | undefined;

/** Seals and opens model endpoint keys; null when LOOPLANE_ENCRYPTION_KEY is unset (keys are then refused). */
function secretBox(): SecretBox | null {
  if (box === undefined) {
    const key = env().LOOPLANE_ENCRYPTION_KEY;
    box = key ? new SecretBox(key) : null;
  }
  return box;
}

/** What the SSE routes need: the database and the live bus. */
export function streamDeps(): StreamDeps {
  return {
    db: db(),
    bus: live().bus,
    onError: (error) => logger().warn({ err: error instanceof Error ? error.message : String(error) }, 'event stream ended early'),
  };
}
