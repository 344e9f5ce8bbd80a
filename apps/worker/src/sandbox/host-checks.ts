import { readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Why sandbox uids cannot reach `dir` (a directory above it without o+x), or null. */
export async function untraversable(dir: string): Promise<string | null> {
  for (let current = dir; ; current = dirname(current)) {
    const mode = (await stat(current)).mode;
    if ((mode & 0o001) === 0)
      return `${current} is not traversable by the sandbox uids (it needs o+x, e.g. chmod 711), so workspaces under ${dir} cannot be used`;
    if (dirname(current) === current) return null;
  }
}

/** uid/gid of a local account, from /etc/passwd. */
export async function lookupAccount(name: string): Promise<{ uid: number; gid: number } | null> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '');
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  return null;
}
