import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENTS_MD_MAX_BYTES, type RepositoryContext } from '@looplane/engine';
import { SeedFailure } from './fetch-repository';

/** Regular files of a work tree and their total size, the root's `.git` left out; SeedFailure past `maxBytes`. */
export async function treeStats(workTree: string, maxBytes: number): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (dir: string, top: boolean): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (top && entry.name === '.git') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, false);
      else if (entry.isFile()) {
        files++;
        bytes += (await lstat(path)).size;
        if (bytes > maxBytes) throw new SeedFailure(`the files are larger than this worker seeds (LOOPLANE_SEED_MAX_MB: ${Math.round(maxBytes / 1048576)} MB)`);
      }
    }
  };
  await walk(workTree, true);
  return { files, bytes };
}

/**
 * The repository's root `AGENTS.md`, cut at {@link AGENTS_MD_MAX_BYTES}, or undefined when there is
 * none. Only a regular file counts: a link is not followed (it could point out of the tree).
 */
export async function agentsMdOf(workTree: string): Promise<RepositoryContext | undefined> {
  const path = join(workTree, 'AGENTS.md');
  const stats = await lstat(path).catch(() => null);
  if (!stats?.isFile() || stats.size === 0) return undefined;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(stats.size, AGENTS_MD_MAX_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A cut may fall inside a multi-byte character: the decoder drops the partial one.
    const text = new TextDecoder('utf-8', { fatal: false })
      .decode(buffer.subarray(0, bytesRead))
      .replace(/\uFFFD+$/, '')
      .replaceAll('\u0000', '');
    return { agentsMd: { text, bytes: stats.size, truncated: stats.size > AGENTS_MD_MAX_BYTES } };
  } finally {
    await handle.close();
  }
}
