import { lchown, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Gives a tree to `uid:gid` without following symlinks (files git checked out as the worker). */
export async function chownTree(root: string, uid: number, gid: number): Promise<void> {
  await lchown(root, uid, gid);
  const entries = await readdir(root, { withFileTypes: true });
  await Promise.all(
    entries.map(async (entry) => {
      const path = join(root, entry.name);
      if (entry.isDirectory()) await chownTree(path, uid, gid);
      else await lchown(path, uid, gid);
    }),
  );
}
