import { resolvePath } from '../workspace-paths';
import { destructive, dynamic, type ScanState } from './scan-state';
import type { ResolvedWord } from './words';

/** Devices that are safe to write to: they discard or print, and never reach a disk. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/;
/** Block devices and kernel memory: a write there destroys a disk or the machine. */
const RAW_DEVICES = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|loop|dm-|md|disk\/|mapper\/|mem$|kmem$|port$)/;

/**
 * Judges a path that a command writes (a redirection target, `cp`'s destination, `tee`'s file...):
 * inside the workspace or a scratch directory is fine; a raw device, anywhere else outside the
 * workspace, or a path that is not static is recorded.
 */
export function checkWritePath(state: ScanState, word: ResolvedWord, command: string, what = 'writes'): void {
  if (!word.static || word.expands) {
    dynamic(state, command, `${what} ${word.source}, a path that is not static`);
    return;
  }
  const path = word.text;
  if (HARMLESS_DEVICES.test(path)) return;
  const resolved = resolvePath(path, state.cwd, state.root);
  if (resolved.absolute === null) {
    dynamic(state, command, `${what} ${path} relative to a directory that is not known`);
    return;
  }
  if (RAW_DEVICES.test(resolved.absolute)) {
    destructive(state, command, `${what} the raw device ${resolved.absolute}`);
    return;
  }
  if (resolved.relative !== null) return;
  if (state.scratch.some((dir) => resolved.absolute === dir || resolved.absolute?.startsWith(`${dir}/`))) return;
  destructive(state, command, `${what} ${path} outside the workspace`);
}
