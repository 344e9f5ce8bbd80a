import 'server-only';
import { createDispatch, type ApiDeps, type Dispatch, type StreamDeps } from '@looplane/api';
import { SecretBox } from '@looplane/db';
import { createSessionQueue, LiveBus } from '@looplane/queue';
import { WorkspaceManager } from '@looplane/sandbox';
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

/** What the tRPC API needs: the database and the after-commit dispatch. */
export function apiDeps(): ApiDeps {
  return { db: db(), dispatch: live().dispatch, secretBox: secretBox(), workspaces: workspaces() };
}

let workspaceReader: WorkspaceManager | null | undefined;

/** Read access to the workers' session workspaces (same host), for `sessions.diff`; null: none here. */
function workspaces(): WorkspaceManager | null {
  if (workspaceReader === undefined) {
    const { LOOPLANE_WORKSPACE_ROOT: root, LOOPLANE_HOME: home } = env();
    const dir = root ?? (home ? join(home, 'workspaces') : undefined);
    workspaceReader = dir ? new WorkspaceManager({ root: dir }) : null;
  }
  return workspaceReader;
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
