import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ArchiveOptions } from './archive-limits';
import { walkArchive } from './archive-walk';
import { inspectArchive } from './inspect-archive';

/** What an extraction wrote. */
export interface ExtractResult {
  /** Entries of the tree written: files, directories (named or implied) and links. */
  files: number;
  /** Bytes of file content written (a hard link's copy included). */
  bytes: number;
}

/** Create a new file, never through a link and never over anything already there. */
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const READ = constants.O_RDONLY | constants.O_NOFOLLOW;

async function writeAll(file: Awaited<ReturnType<typeof open>>, chunk: Buffer): Promise<void> {
  for (let at = 0; at < chunk.length; ) at += (await file.write(chunk, at)).bytesWritten;
}

/** Writes a new regular file from `chunks` with exactly `mode` (whatever the umask); its size. */
async function writeFile(path: string, chunks: AsyncIterable<Buffer>, mode: number): Promise<number> {
  const file = await open(path, CREATE, mode);
  let size = 0;
  try {
    for await (const chunk of chunks) {
      await writeAll(file, chunk);
      size += chunk.length;
    }
    await file.chmod(mode);
  } finally {
    await file.close();
  }
  return size;
}

/** A hard link's copy of a file written earlier in this extraction (never a link: a copy shares no inode). */
async function copyFile(from: string, to: string): Promise<number> {
  const source = await open(from, READ);
  try {
    const mode = (await source.stat()).mode & 0o777;
    return await writeFile(to, source.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>, mode);
  } finally {
    await source.close();
  }
}

/** Makes a directory of the tree (0755); one already there must be a real directory, not a link. */
async function makeDirectory(path: string): Promise<void> {
  try {
    await mkdir(path, 0o755);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !(await lstat(path)).isDirectory()) throw error;
  }
  await chmod(path, 0o755);
}

/**
 * Unpacks an archive into `destDir`, an existing empty directory: regular files (0644, or 0755
 * when any execute bit was set), directories (0755) and symbolic links that stay inside the tree;
 * a hard link becomes a copy of its file. The whole archive is inspected first with every rule of
 * {@link inspectArchive} (so a refused archive writes nothing), and the same rules are applied
 * again as it is written. No write follows a link: every file is created with O_NOFOLLOW|O_EXCL,
 * and every parent directory is made here, never through a link (the rules keep entries out of
 * links). Throws the AppError of a refused archive, or the filesystem's error.
 */
export async function extractArchive(bytes: Buffer, destDir: string, options: ArchiveOptions): Promise<ExtractResult> {
  const root = resolve(destDir);
  if (!(await lstat(root)).isDirectory()) throw new Error(`${root} is not a directory`);
  if ((await readdir(root)).length > 0) throw new Error(`${root} is not empty`);
  await inspectArchive(bytes, options);

  const made = new Set<string>();
  let written = 0;
  const summary = await walkArchive(bytes, options, async (entry) => {
    const names = entry.path.split('/');
    for (let i = 1; i <= names.length; i++) {
      const dir = names.slice(0, i).join('/');
      if ((i < names.length || entry.kind === 'directory') && !made.has(dir)) {
        await makeDirectory(join(root, dir));
        made.add(dir);
      }
    }
    const at = join(root, entry.path);
    if (entry.kind === 'file') written += await writeFile(at, entry.content(), entry.executable ? 0o755 : 0o644);
    else if (entry.kind === 'symlink') await symlink(entry.target!, at);
    else if (entry.kind === 'hardlink') written += await copyFile(join(root, entry.target!), at);
  });
  return { files: summary.files, bytes: written };
}
