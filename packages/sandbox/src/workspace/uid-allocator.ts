import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '@looplane/shared';

/**
 * Hands every session its own host uid from a range with no passwd entry. A file per uid,
 * created with O_EXCL, is the lease, so workers on one host never share a uid. A uid per session
 * means one session's processes can neither signal nor read another's (even outside the mount
 * namespace), and RLIMIT_NPROC counts one session only.
 */
export class UidAllocator {
  private checked: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly base: number,
    private readonly count: number,
  ) {}

  /** The uid leased to `sessionId`, leasing one if it has none. */
  async allocate(sessionId: string): Promise<number> {
    this.checked ??= this.checkRange();
    await this.checked;
    // Again on every lease: the workspace root is a cache an operator may wipe while the worker runs.
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const start = createHash('sha256').update(sessionId).digest().readUInt32BE(0) % this.count;
    for (let i = 0; i < this.count; i++) {
      const uid = this.base + ((start + i) % this.count);
      const file = join(this.dir, String(uid));
      try {
        const handle = await open(file, 'wx', 0o600);
        await handle.writeFile(sessionId);
        await handle.close();
        return uid;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if ((await readFile(file, 'utf8').catch(() => '')) === sessionId) return uid;
      }
    }
    throw new AppError('PRECONDITION_FAILED', `all ${this.count} sandbox uids are in use`);
  }

  /** Returns a uid to the pool once its workspace is gone. */
  async release(uid: number): Promise<void> {
    await rm(join(this.dir, String(uid)), { force: true });
  }

  // The range must belong to nobody else: not a real account, not a container's subordinate ids.
  private async checkRange(): Promise<void> {
    if (this.base < 1000 || this.base + this.count > 2 ** 31 - 1)
      throw new AppError('PRECONDITION_FAILED', 'the sandbox uid range must lie within 1000..2^31-1');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const end = this.base + this.count;
    const overlaps = (from: number, to: number) => from < end && to > this.base;
    for (const line of (await readFile('/etc/passwd', 'utf8').catch(() => '')).split('\n')) {
      const uid = Number(line.split(':')[2]);
      if (line && overlaps(uid, uid + 1))
        throw new AppError('PRECONDITION_FAILED', `sandbox uid range ${this.base}+${this.count} contains the account ${line.split(':')[0]}`);
    }
    for (const file of ['/etc/subuid', '/etc/subgid']) {
      for (const line of (await readFile(file, 'utf8').catch(() => '')).split('\n')) {
        const [name, from, size] = line.split(':');
        if (name && overlaps(Number(from), Number(from) + Number(size))) {
          throw new AppError('PRECONDITION_FAILED', `sandbox uid range ${this.base}+${this.count} overlaps ${file} of ${name}`);
        }
      }
    }
  }
}
