import { constants, type Stats } from 'node:fs';
import { chown, lstat, mkdir, open, readdir, readlink, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { AppError } from '@looplane/shared';
import { z } from 'zod';
import type { Workspace } from '../workspace/workspace-manager';
import { callLimits, inWorkspace, type ToolDeps } from './context';
import { resolveInside } from './safe-path';
import { defineTool, type SandboxTool } from './tool';

const MAX_WRITE_BYTES = 10 * 1024 * 1024;
const path = z
  .string()
  .min(1)
  .max(4096)
  .describe('Path relative to the workspace root (or absolute under /workspace). Paths that leave the workspace, also through symlinks, are refused.');

/**
 * The worker does file IO as root on the sandbox's tree, so it only touches regular files the
 * session uid owns: a file that reached the tree some other way (e.g. a hard link to a host file)
 * is refused rather than trusted.
 */
function checkFile(info: Stats, workspace: Workspace, shown: string): void {
  if (!info.isFile()) throw new AppError('BAD_REQUEST', `${shown} is not a regular file`);
  if (info.uid !== workspace.uid) throw new AppError('FORBIDDEN', `${shown} is not owned by the workspace user`);
}

async function readText(workspace: Workspace, input: string, maxBytes: number): Promise<{ text: string; shown: string; real: string }> {
  const target = await resolveInside(workspace.path, input);
  const handle = await open(target.real, constants.O_RDONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new AppError('NOT_FOUND', `no such file: ${target.relative}`) : error;
  });
  try {
    const info = await handle.stat();
    checkFile(info, workspace, target.relative);
    if (info.size > maxBytes)
      throw new AppError('BAD_REQUEST', `${target.relative} is ${info.size} bytes; the limit is ${maxBytes} (use offset/limit or search_files)`);
    const bytes = await handle.readFile();
    if (bytes.subarray(0, 8192).includes(0)) throw new AppError('BAD_REQUEST', `${target.relative} looks binary; refusing to read it as text`);
    return { text: bytes.toString('utf8'), shown: target.relative, real: target.real };
  } finally {
    await handle.close();
  }
}

// Creates missing parent directories one by one, each given to the session uid.
async function makeParents(workspace: Workspace, dir: string): Promise<void> {
  const missing: string[] = [];
  for (let current = dir; !(await stat(current).catch(() => null)); current = dirname(current)) missing.unshift(current);
  for (const created of missing) {
    await mkdir(created, { mode: 0o755 });
    await chown(created, workspace.uid, workspace.gid);
  }
}

async function writeText(workspace: Workspace, real: string, content: string): Promise<void> {
  await makeParents(workspace, dirname(real));
  // An existing file is checked before anything is overwritten (hence no O_TRUNC); a new one is
  // created exclusively and given to the session uid.
  const existing = await open(real, constants.O_WRONLY | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error.code === 'ELOOP' ? new AppError('BAD_REQUEST', `refusing to write through a symlink: ${relative(workspace.path, real)}`) : error;
  });
  const handle = existing ?? (await open(real, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644));
  try {
    if (existing) {
      checkFile(await handle.stat(), workspace, relative(workspace.path, real));
      await handle.truncate(0);
    } else {
      await handle.chown(workspace.uid, workspace.gid);
    }
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** read_file, write_file, edit_file, list_files: done by the worker under the workspace lock. */
export function fileTools(deps: ToolDeps): SandboxTool[] {
  const readFile = defineTool(
    {
      name: 'read_file',
      description: 'Read a text file of the workspace.\nUse offset and limit (1-based lines) to page through long files. Binary files are refused.',
      idempotent: true,
    },
    z.object({ path, offset: z.int().min(1).optional(), limit: z.int().min(1).optional() }).strict(),
    (args, call) =>
      inWorkspace(deps, call, null, async (workspace) => {
        const limits = callLimits(deps, call);
        const { text, shown } = await readText(workspace, args.path, limits.outputBytes * 16);
        const lines = text.split('\n');
        const from = (args.offset ?? 1) - 1;
        const to = args.limit ? Math.min(lines.length, from + args.limit) : lines.length;
        const slice = from === 0 && to === lines.length ? text : lines.slice(from, to).join('\n');
        if (Buffer.byteLength(slice) > limits.outputBytes) {
          return { ok: false, output: `${shown}: the selected lines exceed ${limits.outputBytes} bytes; read fewer lines` };
        }
        return { ok: true, output: from === 0 && to === lines.length ? slice : `[${shown}: lines ${from + 1}-${to} of ${lines.length}]\n${slice}` };
      }),
  );
  const writeFile = defineTool(
    {
      name: 'write_file',
      description:
        'Create or overwrite a file in the workspace with the given content.\nParent directories are created. Prefer edit_file for changes to existing files.',
      idempotent: false,
    },
    z.object({ path, content: z.string() }).strict(),
    (args, call) =>
      inWorkspace(deps, call, 'write_file', async (workspace) => {
        const limits = callLimits(deps, call);
        const size = Buffer.byteLength(args.content);
        if (size > Math.min(MAX_WRITE_BYTES, limits.workspaceBytes))
          throw new AppError('BAD_REQUEST', `content is ${size} bytes; the limit per write is ${Math.min(MAX_WRITE_BYTES, limits.workspaceBytes)}`);
        const target = await resolveInside(workspace.path, args.path);
        await writeText(workspace, target.real, args.content);
        return { ok: true, output: `wrote ${size} bytes to ${target.relative}` };
      }),
  );
  const editFile = defineTool(
    {
      name: 'edit_file',
      description:
        'Replace an exact string in a workspace file.\nold_string must occur exactly once unless replace_all is set; include enough context to make it unique. Whitespace matters.',
      idempotent: false,
    },
    z.object({ path, old_string: z.string().min(1), new_string: z.string(), replace_all: z.boolean().optional() }).strict(),
    (args, call) =>
      inWorkspace(deps, call, 'edit_file', async (workspace) => {
        const { text, shown, real } = await readText(workspace, args.path, MAX_WRITE_BYTES);
        const count = text.split(args.old_string).length - 1;
        if (count === 0) return { ok: false, output: `old_string was not found in ${shown}` };
        if (count > 1 && !args.replace_all)
          return { ok: false, output: `old_string occurs ${count} times in ${shown}; add context to make it unique or set replace_all` };
        const updated = args.replace_all ? text.split(args.old_string).join(args.new_string) : text.replace(args.old_string, () => args.new_string);
        await writeText(workspace, real, updated);
        return { ok: true, output: `replaced ${args.replace_all ? count : 1} occurrence${count > 1 && args.replace_all ? 's' : ''} in ${shown}` };
      }),
  );
  const listFiles = defineTool(
    {
      name: 'list_files',
      description: 'List a directory of the workspace: directories end with /, files show their size, symlinks their target.',
      idempotent: true,
    },
    z.object({ path: path.optional(), depth: z.int().min(1).max(10).optional(), max_entries: z.int().min(1).max(5000).optional() }).strict(),
    (args, call) =>
      inWorkspace(deps, call, null, async (workspace) => {
        const target = await resolveInside(workspace.path, args.path ?? '.');
        const info = await lstat(target.real).catch(() => null);
        if (!info?.isDirectory()) throw new AppError('NOT_FOUND', `no such directory: ${target.relative}`);
        const lines: string[] = [];
        const max = args.max_entries ?? 500;
        const more = await walk(target.real, target.real, args.depth ?? 2, max, lines);
        return { ok: true, output: (lines.join('\n') || '(empty)') + (more ? `\n[stopped after ${max} entries]` : '') };
      }),
  );
  return [readFile, writeFile, editFile, listFiles];
}

// lstat only: a symlink is listed with its target, never followed.
async function walk(base: string, dir: string, depth: number, max: number, lines: string[]): Promise<boolean> {
  const names = (await readdir(dir)).sort();
  for (const name of names) {
    if (lines.length >= max) return true;
    const full = join(dir, name);
    const info = await lstat(full);
    const shown = relative(base, full);
    if (info.isSymbolicLink()) lines.push(`${shown} -> ${await readlink(full)}`);
    else if (info.isDirectory()) {
      lines.push(`${shown}/`);
      if (depth > 1 && (await walk(base, full, depth - 1, max, lines))) return true;
    } else lines.push(`${shown} (${info.size} bytes)`);
  }
  return false;
}
