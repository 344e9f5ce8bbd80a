import { constants, type Stats } from 'node:fs';
import { type FileHandle, mkdir, open, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, posix } from 'node:path';
import { AppError } from '@looplane/shared';

/**
 * File access beneath a workspace root without trusting anything the sandbox wrote: the worker
 * resolves a path one component at a time, each opened relative to the directory before it (through
 * `/proc/self/fd/N/name`, Node's stand-in for openat), with O_NOFOLLOW | O_NONBLOCK. So:
 * - a symlink is never followed by the kernel; the resolver reads it and follows it itself, only
 *   while it stays beneath the root (`/workspace/...` targets map to the root, like the sandbox sees);
 * - no open blocks: a FIFO opens at once (or fails with ENXIO for writing) and is then refused by
 *   its type, so a model cannot park a worker thread on `open()`;
 * - a component swapped for a symlink between two steps is caught by the next O_NOFOLLOW open.
 */

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const NOFOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** As in Linux's path walk: more expansions than this is a loop. */
const MAX_LINKS = 40;
const MAX_PATH = 4096;

/** The fd-relative spelling of `name` inside the directory open as `dir`. */
export function at(dir: FileHandle, name: string): string {
  return `/proc/self/fd/${dir.fd}/${name}`;
}

/** A resolved location: the open parent directory, the last component, and the path shown to the model. */
export interface Location {
  parent: FileHandle;
  name: string;
  relative: string;
  /** Closes every directory the walk opened (the parent included). */
  close(): Promise<void>;
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Splits a tool's path argument into components relative to the root; `/workspace/...` is the root. */
function components(input: string): string[] {
  if (input.includes('\0')) throw new AppError('BAD_REQUEST', 'path contains a NUL byte');
  if (input.length > MAX_PATH) throw new AppError('BAD_REQUEST', `path is longer than ${MAX_PATH} characters`);
  let path = input.trim() || '.';
  if (isAbsolute(path)) {
    const normal = posix.normalize(path);
    if (normal !== '/workspace' && !normal.startsWith('/workspace/')) throw new AppError('BAD_REQUEST', `absolute paths must be under /workspace: ${input}`);
    path = normal.slice('/workspace'.length);
  }
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

export interface ResolveOptions {
  /** Follow a symlink in the last component (reading, listing); writing never does. */
  followLast: boolean;
  /** Create missing directories on the way (mode 0755), owned by this uid/gid. */
  createParents?: { uid: number; gid: number };
}

/**
 * Resolves `input` beneath `root`. Every directory on the way is a real directory reached without
 * the kernel following a link; `..` never climbs above the root. Throws BAD_REQUEST for a path that
 * leaves the workspace (lexically or through a symlink), NOT_FOUND for a missing directory.
 */
export async function resolveBeneath(root: string, input: string, options: ResolveOptions): Promise<Location> {
  const realRoot = await realpath(root);
  const stack: FileHandle[] = [await open(realRoot, DIR_FLAGS)];
  const shown: string[] = [];
  const close = async () => {
    await Promise.all(stack.map((handle) => handle.close().catch(() => undefined)));
  };
  try {
    const pending = components(input);
    let links = 0;
    for (;;) {
      const part = pending.shift();
      if (part === undefined) {
        // The path named a directory (or the root): its parent is the one above, unless it is the root.
        if (stack.length === 1) return { parent: stack[0] as FileHandle, name: '.', relative: '.', close };
        const dir = stack.pop() as FileHandle;
        await dir.close();
        const name = shown.pop() as string;
        return { parent: stack.at(-1) as FileHandle, name, relative: shown.concat(name).join('/'), close };
      }
      if (part === '..') {
        if (stack.length === 1) throw new AppError('BAD_REQUEST', `path leaves the workspace: ${input}`);
        await (stack.pop() as FileHandle).close();
        shown.pop();
        continue;
      }
      const parent = stack.at(-1) as FileHandle;
      const last = pending.length === 0;
      const link = await readlink(at(parent, part)).catch((error: unknown) => {
        if (errno(error) === 'EINVAL' || errno(error) === 'ENOENT') return null; // not a link, or not there
        throw error;
      });
      if (link !== null) {
        if (last && !options.followLast) return { parent, name: part, relative: shown.concat(part).join('/'), close };
        if (++links > MAX_LINKS) throw new AppError('BAD_REQUEST', `too many symlinks in ${input}`);
        const target = followLink(link, input);
        if (target.absolute) {
          // An absolute target starts again at the root (the sandbox sees the workspace at /workspace).
          while (stack.length > 1) await (stack.pop() as FileHandle).close();
          shown.length = 0;
        }
        pending.unshift(...target.parts);
        continue;
      }
      if (last) return { parent, name: part, relative: shown.concat(part).join('/'), close };
      stack.push(await openDir(parent, part, input, options.createParents));
      shown.push(part);
    }
  } catch (error) {
    await close();
    throw error;
  }
}

function followLink(link: string, input: string): { absolute: boolean; parts: string[] } {
  if (!isAbsolute(link)) return { absolute: false, parts: link.split('/').filter((p) => p !== '' && p !== '.') };
  const normal = posix.normalize(link);
  if (normal !== '/workspace' && !normal.startsWith('/workspace/'))
    throw new AppError('BAD_REQUEST', `path leads outside the workspace through a symlink: ${input}`);
  return { absolute: true, parts: normal.slice('/workspace'.length).split('/').filter(Boolean) };
}

async function openDir(parent: FileHandle, name: string, input: string, create: ResolveOptions['createParents']): Promise<FileHandle> {
  try {
    return await open(at(parent, name), DIR_FLAGS);
  } catch (error) {
    if (errno(error) === 'ENOTDIR') throw new AppError('BAD_REQUEST', `${name} in ${input} is not a directory`);
    if (errno(error) !== 'ENOENT') throw error;
    if (!create) throw new AppError('NOT_FOUND', `no such directory: ${name} in ${input}`);
    await mkdir(at(parent, name), { mode: 0o755 }).catch((e: unknown) => {
      if (errno(e) !== 'EEXIST') throw e;
    });
    const made = await open(at(parent, name), DIR_FLAGS);
    await made.chown(create.uid, create.gid);
    return made;
  }
}

/** Only regular files and directories are worked on; the message names what else was found. */
export function kindOf(info: Stats): string {
  if (info.isFile()) return 'a regular file';
  if (info.isDirectory()) return 'a directory';
  if (info.isSymbolicLink()) return 'a symlink';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device file';
  return 'a special file';
}

/**
 * Opens the last component of a location without following it and without blocking; the caller
 * checks the type with `fstat` before any read or write. `null` when it does not exist (and
 * `create` is not set).
 */
export async function openAt(location: Location, flags: number, mode?: number): Promise<FileHandle | null> {
  return open(at(location.parent, location.name), flags | NOFOLLOW, mode).catch((error: unknown) => {
    const code = errno(error);
    if (code === 'ENOENT') return null;
    // O_NOFOLLOW on a link, or a FIFO with no reader opened for writing.
    if (code === 'ELOOP') throw new AppError('BAD_REQUEST', `refusing to open a symlink: ${location.relative}`);
    if (code === 'ENXIO') throw new AppError('BAD_REQUEST', `${location.relative} is not a regular file (a FIFO or socket)`);
    throw error;
  });
}

/**
 * The workspace-relative form of a path argument for a program run inside the sandbox (which sees
 * the workspace at /workspace and resolves links itself): lexical only, refusing `..` above the root.
 */
export function workspaceRelative(input: string): string {
  const parts: string[] = [];
  for (const part of components(input)) {
    if (part !== '..') parts.push(part);
    else if (parts.pop() === undefined) throw new AppError('BAD_REQUEST', `path leaves the workspace: ${input}`);
  }
  return parts.join('/') || '.';
}
