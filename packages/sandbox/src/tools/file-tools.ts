import { constants, type Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { AppError } from '@looplane/shared';
import { z } from 'zod';
import type { Workspace } from '../workspace/workspace-manager';
import { at, kindOf, type Location, openAt, resolveBeneath } from './beneath';
import { callLimits, inWorkspace, type ToolDeps } from './context';
import { defineTool, type SandboxTool } from './tool';

const MAX_WRITE_BYTES = 10 * 1024 * 1024;
const path = z
  .string()
  .min(1)
  .max(4096)
  .describe('Path relative to the workspace root (or absolute under /workspace). Paths that leave the workspace, also through symlinks, are refused.');

/**
 * The worker opens workspace files itself (under the workspace lock, nothing of the sandbox
 * running), resolving every component beneath the root without following links or blocking
 * (see beneath.ts). It then works only on regular files the session uid owns: a FIFO, a device or
 * a file that reached the tree some other way is refused by its type before any read or write.
 */
function checkFile(info: Stats, workspace: Workspace, shown: string): void {
  if (!info.isFile()) throw new AppError('BAD_REQUEST', `${shown} is ${kindOf(info)}, not a regular file; refusing to read or write it`);
  if (info.uid !== workspace.uid) throw new AppError('FORBIDDEN', `${shown} is not owned by the workspace user`);
}

/** Resolves a path beneath the workspace, runs `fn` with it, and closes what the walk opened. */
async function withLocation<T>(workspace: Workspace, input: string, create: boolean, fn: (location: Location) => Promise<T>): Promise<T> {
  const location = await resolveBeneath(workspace.path, input, {
    followLast: true,
    ...(create ? { createParents: { uid: workspace.uid, gid: workspace.gid } } : {}),
  });
  try {
    return await fn(location);
  } finally {
    await location.close();
  }
}

async function readText(workspace: Workspace, location: Location, maxBytes: number): Promise<string> {
  const handle = await openAt(location, constants.O_RDONLY);
  if (!handle) throw new AppError('NOT_FOUND', `no such file: ${location.relative}`);
  try {
    const info = await handle.stat();
    checkFile(info, workspace, location.relative);
    if (info.size > maxBytes)
      throw new AppError('BAD_REQUEST', `${location.relative} is ${info.size} bytes; the limit is ${maxBytes} (use offset/limit or search_files)`);
    const bytes = await handle.readFile();
    if (bytes.subarray(0, 8192).includes(0)) throw new AppError('BAD_REQUEST', `${location.relative} looks binary; refusing to read it as text`);
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

async function writeText(workspace: Workspace, location: Location, content: string): Promise<void> {
  if (location.name === '.') throw new AppError('BAD_REQUEST', 'the workspace root is a directory');
  // An existing file is checked before anything is overwritten (hence no O_TRUNC); a new one is
  // created exclusively and given to the session uid.
  const existing = await openAt(location, constants.O_WRONLY);
  const handle = existing ?? (await openAt(location, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644));
  if (!handle) throw new AppError('CONFLICT', `${location.relative} changed while it was being written`);
  try {
    if (existing) {
      checkFile(await handle.stat(), workspace, location.relative);
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
        const { text, shown } = await withLocation(workspace, args.path, false, async (location) => ({
          text: await readText(workspace, location, limits.outputBytes * 16),
          shown: location.relative,
        }));
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
        const shown = await withLocation(workspace, args.path, true, async (location) => {
          await writeText(workspace, location, args.content);
          return location.relative;
        });
        return { ok: true, output: `wrote ${size} bytes to ${shown}` };
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
        return withLocation(workspace, args.path, false, async (location) => {
          const shown = location.relative;
          const text = await readText(workspace, location, MAX_WRITE_BYTES);
          const count = text.split(args.old_string).length - 1;
          if (count === 0) return { ok: false, output: `old_string was not found in ${shown}` };
          if (count > 1 && !args.replace_all)
            return { ok: false, output: `old_string occurs ${count} times in ${shown}; add context to make it unique or set replace_all` };
          const updated = args.replace_all ? text.split(args.old_string).join(args.new_string) : text.replace(args.old_string, () => args.new_string);
          await writeText(workspace, location, updated);
          return { ok: true, output: `replaced ${args.replace_all ? count : 1} occurrence${count > 1 && args.replace_all ? 's' : ''} in ${shown}` };
        });
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
        return withLocation(workspace, args.path ?? '.', false, async (location) => {
          const dir = await openAt(location, constants.O_RDONLY | constants.O_DIRECTORY).catch(() => null);
          if (!dir) throw new AppError('NOT_FOUND', `no such directory: ${location.relative}`);
          try {
            const lines: string[] = [];
            const max = args.max_entries ?? 500;
            const more = await walk(at(dir, ''), '', args.depth ?? 2, max, lines);
            return { ok: true, output: (lines.join('\n') || '(empty)') + (more ? `\n[stopped after ${max} entries]` : '') };
          } finally {
            await dir.close();
          }
        });
      }),
  );
  return [readFile, writeFile, editFile, listFiles];
}

// lstat only: a symlink is listed with its target, never followed. `dir` is reached through the
// open directory's fd, so no component of it is looked up by name again.
async function walk(dir: string, shownDir: string, depth: number, max: number, lines: string[]): Promise<boolean> {
  const names = (await readdir(dir)).sort();
  for (const name of names) {
    if (lines.length >= max) return true;
    const full = `${dir}${name}`;
    const info = await lstat(full);
    const shown = `${shownDir}${name}`;
    if (info.isSymbolicLink()) lines.push(`${shown} -> ${await readlink(full)}`);
    else if (info.isDirectory()) {
      lines.push(`${shown}/`);
      if (depth > 1 && (await walk(`${full}/`, `${shown}/`, depth - 1, max, lines))) return true;
    } else if (info.isFile()) lines.push(`${shown} (${info.size} bytes)`);
    else lines.push(`${shown} (${kindOf(info)})`);
  }
  return false;
}
