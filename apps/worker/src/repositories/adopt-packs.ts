import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Copies the packs a fetch wrote (the repository's objects, already compressed) into the
 * workspace's own git dir before its first commit: committing the fetched files then finds every
 * blob and tree already there (no second hashing and compression of each file), and the store's
 * pack reuses them. A copy, not a link: the sandbox later owns the fetched `.git`, and nothing it
 * does there may reach the worker's objects. Runs before anything sandboxed touched the tree.
 */
export async function adoptPacks(fetchedGitDir: string, workspaceGitDir: string): Promise<void> {
  const from = join(fetchedGitDir, 'objects', 'pack');
  const to = join(workspaceGitDir, 'objects', 'pack');
  const names = await readdir(from).catch(() => [] as string[]);
  // Each .idx after its .pack, so a reader never finds an index without its pack.
  for (const name of names.filter((n) => n.endsWith('.pack'))) await copyFile(join(from, name), join(to, name));
  for (const name of names.filter((n) => n.endsWith('.idx'))) await copyFile(join(from, name), join(to, name));
}
