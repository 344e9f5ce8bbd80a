import { resolvePath } from '../workspace-paths';
import { destructive, dynamic, type ScanState } from './scan-state';
import type { ResolvedWord } from './words';

/** Devices that are safe to write to: they discard or print, and never reach a disk. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/;
/** Block devices and kernel memory: a write there destroys a disk or the machine. */
const RAW_DEVICES = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|loop|dm-|md|disk\/|mapper\/|mem$|kmem$|port$)/;
/** A git directory: its config and hooks name programs git runs later (the default policy asks before file tools write there too). */
const GIT_DIRECTORY = /(^|\/)\.git(\/|$)/;

/** Where a written path lands: an ordinary workspace file, a scratch file, or somewhere already judged (a device, outside, unknown). */
export type WriteTarget = 'workspace' | 'scratch' | 'judged';

/**
 * Judges a path that a command writes (a redirection target, `cp`'s destination, `tee`'s file...):
 * inside the workspace or a scratch directory is fine; a raw device, a git directory, anywhere
 * else outside the workspace, or a path that is not static is recorded.
 */
export function checkWritePath(state: ScanState, word: ResolvedWord, command: string, what = 'writes'): WriteTarget {
  if (!word.static || word.expands) {
    dynamic(state, command, `${what} ${word.source}, a path that is not static`);
    return 'judged';
  }
  const path = word.text;
  if (HARMLESS_DEVICES.test(path)) return 'judged';
  const resolved = resolvePath(path, state.cwd, state.root);
  if (resolved.absolute === null) {
    dynamic(state, command, `${what} ${path} relative to a directory that is not known`);
    return 'judged';
  }
  if (RAW_DEVICES.test(resolved.absolute)) {
    destructive(state, command, `${what} the raw device ${resolved.absolute}`);
    return 'judged';
  }
  if (GIT_DIRECTORY.test(resolved.absolute)) {
    destructive(state, command, `${what} ${path} inside a git directory, where config and hooks name programs git runs later`);
    return 'judged';
  }
  if (resolved.relative !== null) return 'workspace';
  if (state.scratch.some((dir) => resolved.absolute === dir || resolved.absolute?.startsWith(`${dir}/`))) return 'scratch';
  destructive(state, command, `${what} ${path} outside the workspace`);
  return 'judged';
}

/**
 * Records that a command leaves a workspace file empty (`> f`, `truncate -s0 f`, `cp /dev/null f`):
 * whatever the file held is lost, so it is destructive however it was spelled. A scratch file is
 * private to the sandbox and holds nothing the run keeps.
 */
export function recordEmptied(state: ScanState, where: WriteTarget, path: string, command: string, what = 'empties'): void {
  if (where === 'workspace') destructive(state, command, `${what} ${path}, losing what it held`);
}

/** `checkWritePath` for a command that leaves the file empty. */
export function checkEmptiedPath(state: ScanState, word: ResolvedWord, command: string, what = 'empties'): void {
  recordEmptied(state, checkWritePath(state, word, command, what), word.text, command, what);
}
