import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnWorker, type WorkerProcess } from '../testing/fault-harness';

/** A simulated host: one worker process and the workspace root only it uses. */
export interface Host {
  name: string;
  root: string;
  worker: WorkerProcess;
  /** The worker's id (its lease owner), once ready. */
  id: string | null;
  lost: boolean;
}

/**
 * Worker processes on simulated hosts that can be lost: a lost host's worker is killed -9 and its
 * workspace root deleted, as when a machine dies with its disk; its replacement starts empty.
 */
export class HostFleet {
  readonly hosts: Host[] = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'looplane-hosts-'));
  private made = 0;

  constructor(
    private readonly env: Record<string, string>,
    private readonly bundle: string,
  ) {
    // Sandbox uids must traverse down to their workspace.
    chmodSync(this.dir, 0o711);
  }

  /** Starts a host with an empty workspace root and waits until its worker is ready. */
  async add(): Promise<Host> {
    const name = `host-${++this.made}`;
    const root = join(this.dir, name);
    const worker = spawnWorker(
      { ...this.env, LOOPLANE_HOME: join(root, 'home'), LOOPLANE_WORKSPACE_ROOT: join(root, 'workspaces') },
      join(this.dir, `${name}.log`),
      [],
      this.bundle,
    );
    const host: Host = { name, root, worker, id: null, lost: false };
    this.hosts.push(host);
    host.id = await Promise.race([
      worker.ready,
      worker.exited.then(() => Promise.reject(new Error(`${name} exited before it was ready:\n${worker.output().slice(-2000)}`))),
    ]);
    return host;
  }

  /** The live hosts. */
  live(): Host[] {
    return this.hosts.filter((h) => !h.lost);
  }

  /** The live host whose workspace root holds the session's workspace, if any. */
  holding(sessionId: string): Host | undefined {
    return this.live().find((h) => existsSync(join(h.root, 'workspaces', sessionId, 'meta.json')));
  }

  /** Every session whose workspace was on a host when it was lost. */
  readonly lostSessions = new Set<string>();

  /** Loses a host (kill -9, disk gone) and starts a replacement with an empty root. */
  async lose(host: Host): Promise<Host> {
    host.lost = true;
    host.worker.child.kill('SIGKILL');
    await host.worker.exited;
    const workspaces = join(host.root, 'workspaces');
    const names = existsSync(workspaces) ? readdirSync(workspaces) : [];
    for (const name of names) if (!name.startsWith('.')) this.lostSessions.add(name);
    removeTree(host.root);
    return this.add();
  }

  async close(): Promise<void> {
    for (const host of this.hosts) host.worker.child.kill('SIGKILL');
    await Promise.all(this.hosts.map((h) => h.worker.exited));
    removeTree(this.dir);
  }
}

/**
 * Deletes a lost host's disk. The worker's background probe of the other sandbox drivers starts
 * `podman run` processes that a kill -9 of the worker does not end; one may still be writing into
 * its rootfs under the host's root, so a directory can refill while it is removed (ENOTEMPTY).
 * The removal is retried until those processes have finished.
 */
function removeTree(path: string): void {
  rmSync(path, { recursive: true, force: true, maxRetries: 30, retryDelay: 200 });
}
