import { chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceMount } from '../types';

/**
 * The scratch workspace a driver's probe runs in: owned by `probeUid` when the worker is root (a
 * sandbox never runs as root), by the worker's own uid otherwise.
 */
export async function probeWorkspace(stateDir: string, probeUid: number): Promise<WorkspaceMount> {
  const root = process.getuid?.() === 0;
  const uid = root ? probeUid : (process.getuid?.() ?? 0);
  const gid = root ? probeUid : (process.getgid?.() ?? 0);
  const path = join(stateDir, 'probe-workspace');
  await mkdir(path, { recursive: true, mode: 0o700 });
  if (root) await chown(path, uid, gid);
  return { path, uid, gid };
}
