import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, chown, mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { AppError } from '@looplane/shared';
import { killGroup } from '../process/supervise';
import { exitedWithin } from './exec-support';
import { launcherScript } from './launcher';
import { AGENT_PORT, GUEST_PROXY } from './microvm-init';

/** What a guest is booted with; it never changes for the guest's life. */
export interface GuestBoot {
  qemuPath: string;
  kernel: string;
  initramfs: string;
  accel: 'kvm' | 'tcg';
  /** The guest's RAM; a call's memory limit is held inside it by the guest's own cgroup. */
  memoryMiB: number;
  /** A directory for this guest's files (created, owned by `owner`, removed on kill). */
  dir: string;
  /** The agent channel's unix socket: a short path (a socket path has at most 107 bytes; `dir` may be deep). */
  socketPath: string;
  workspacePath: string;
  /** The host uid/gid QEMU runs as (the session's own, when the worker is root). */
  owner: { uid: number; gid: number };
  spawnAs: { uid?: number; gid?: number };
  /** The run's egress proxy socket; without it the guest has no network device at all. */
  egressSocket?: string;
  leakyFds: number[];
  bootTimeoutMs: number;
  /** The host's TSC rate, which an emulated (TCG) guest's TSC runs at: its own calibration against the emulated PIT fails under load. */
  tscKhz?: number;
}

/** One call inside a booted guest. */
export interface GuestCall {
  script: string;
  stdin: string;
  memoryBytes: number;
  pids: number;
  cpus: number;
  tmpBytes: number;
  fileBytes: number;
}

export interface GuestOutcome {
  status: number;
  oomKills: number;
}

/** QEMU option values escape a comma by doubling it. */
const qemuValue = (value: string) => value.replace(/,/g, ',,');

/**
 * One QEMU `microvm` guest serving one session's workspace. QEMU runs as the session's uid,
 * with its own seccomp sandbox, no default devices, and only these: the serial console (to a
 * log file), three virtio-9p shares (the host's /usr read-only, the workspace, a control
 * directory), a virtio-serial port for the agent, and with egress a user-mode network in
 * `restrict` mode whose only reachable address forwards to the run's proxy socket.
 */
export class MicrovmGuest {
  readonly release: string;
  private calls = 0;
  private pending: { n: number; resolve: (line: string[]) => void } | null = null;
  private exited = false;

  private constructor(
    private readonly boot: GuestBoot,
    private readonly child: ChildProcess,
    private readonly server: Server,
    private readonly socket: Socket,
    release: string,
  ) {
    this.release = release;
    child.once('exit', () => {
      this.exited = true;
      this.pending?.resolve([]);
    });
  }

  get memoryMiB(): number {
    return this.boot.memoryMiB;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Boots a guest and waits for its agent's `ready` (the guest kernel's release). */
  static async start(boot: GuestBoot): Promise<MicrovmGuest> {
    await mkdir(join(boot.dir, 'ctl'), { recursive: true, mode: 0o700 });
    await chown(boot.dir, boot.owner.uid, boot.owner.gid);
    await chown(join(boot.dir, 'ctl'), boot.owner.uid, boot.owner.gid);
    const socketPath = boot.socketPath;
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
    await chown(socketPath, boot.owner.uid, boot.owner.gid);
    await chmod(socketPath, 0o600);
    const connected = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const launcher = launcherScript(boot.leakyFds, {}, { kind: 'none' });
    // The parent-death signal ends the guest with the worker, whatever way the worker goes.
    const command = ['/usr/bin/setpriv', '--pdeathsig', 'KILL', '--', boot.qemuPath, ...qemuArgs(boot, socketPath)];
    const child = spawn(launcher.shell, ['-c', launcher.script, 'looplane-launch', ...command], {
      ...boot.spawnAs,
      cwd: boot.dir,
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: boot.dir },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let qemuError = '';
    child.stderr?.on('data', (chunk: Buffer) => (qemuError = (qemuError + chunk.toString('utf8')).slice(-2000)));
    const gone = new Promise<'gone'>((resolve) => child.once('exit', () => resolve('gone')));
    child.once('error', () => undefined);
    const fail = async (why: string): Promise<never> => {
      killGroup(child.pid);
      await exitedWithin(child, 5000);
      server.close();
      const console = await readFile(join(boot.dir, 'console.log'), 'utf8').catch(() => '');
      const tail = [qemuError.trim(), lastLines(console, 8)].filter(Boolean).join(' | ');
      throw new AppError('INTERNAL', `the microVM did not start: ${why}${tail ? `: ${tail}` : ''}`);
    };
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), boot.bootTimeoutMs)));
    try {
      const socket = await Promise.race([connected, gone, deadline]);
      if (socket === 'gone') return await fail('QEMU exited');
      if (socket === 'timeout') return await fail(`no agent within ${boot.bootTimeoutMs} ms`);
      const lines = lineReader(socket);
      const ready = await Promise.race([lines.next(), gone, deadline]);
      if (ready === 'gone') return await fail('the guest powered off during boot');
      if (ready === 'timeout') return await fail(`not ready within ${boot.bootTimeoutMs} ms`);
      if (ready[0] !== 'ready' || !ready[1]) return await fail(`unexpected agent line ${JSON.stringify(ready.join(' '))}`);
      const guest = new MicrovmGuest(boot, child, server, socket, ready[1]);
      lines.onLine((line) => guest.onLine(line));
      return guest;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs one call; resolves when the guest reports it done (its processes all gone), or with null when the guest died. */
  async run(call: GuestCall): Promise<GuestOutcome | null> {
    if (this.exited) return null;
    const n = ++this.calls;
    const callDir = join(this.boot.dir, 'ctl', String(n));
    const { uid, gid } = this.boot.owner;
    await mkdir(callDir, { mode: 0o700 });
    await chown(callDir, uid, gid);
    for (const [name, text] of [
      ['run.sh', call.script],
      ['stdin', call.stdin],
      ['out', ''],
      ['err', ''],
    ] as const) {
      await writeFile(join(callDir, name), text, { mode: 0o600 });
      await chown(join(callDir, name), uid, gid);
    }
    const quota = Math.max(1000, Math.round(call.cpus * 100_000));
    const done = new Promise<string[]>((resolve) => (this.pending = { n, resolve }));
    this.socket.write(`run ${n} ${call.memoryBytes} ${call.pids} ${quota} ${call.tmpBytes} ${Math.ceil(call.fileBytes / 512)}\n`);
    const line = await done;
    this.pending = null;
    if (line[0] !== 'done') return null;
    return { status: Number(line[2]), oomKills: Number(line[3] ?? 0) };
  }

  /** The host directory of the current (or last) call: its script, stdin and output files. */
  callDirectory(): string {
    return join(this.boot.dir, 'ctl', String(this.calls));
  }

  /** Asks the guest to kill the current call's cgroup (it answers with the call's `done`). */
  interrupt(): void {
    if (!this.exited) this.socket.write(`kill ${this.calls}\n`);
  }

  /** Bytes the current call has written to stdout and stderr so far (the output watchdog). */
  async outputBytes(): Promise<number> {
    const dir = this.callDirectory();
    const sizes = await Promise.all(
      ['out', 'err'].map((name) =>
        stat(join(dir, name)).then(
          (entry) => entry.size,
          () => 0,
        ),
      ),
    );
    return sizes[0]! + sizes[1]!;
  }

  /** Ends the guest (QEMU and everything it started) and removes its files. */
  async kill(): Promise<void> {
    killGroup(this.child.pid);
    await exitedWithin(this.child, 10_000);
    this.socket.destroy();
    this.server.close();
    await rm(this.boot.dir, { recursive: true, force: true }).catch(() => undefined);
    await rm(this.boot.socketPath, { force: true }).catch(() => undefined);
  }

  private onLine(line: string[]): void {
    if (line[0] === 'done' && this.pending && Number(line[1]) === this.pending.n) this.pending.resolve(line);
  }
}

/** QEMU's arguments for one guest (no default devices, no user config, its own seccomp sandbox). */
function qemuArgs(boot: GuestBoot, socketPath: string): string[] {
  const share = (id: string, path: string, readonly: boolean) => [
    '-fsdev',
    `local,id=${id},path=${qemuValue(path)},security_model=none${readonly ? ',readonly=on' : ''}`,
    '-device',
    `virtio-9p-device,fsdev=${id},mount_tag=${id}`,
  ];
  const egress = boot.egressSocket;
  const cmdline: string[] = [
    'console=ttyS0',
    'rdinit=/init',
    'quiet',
    'panic=-1',
    `looplane.uid=${boot.owner.uid}`,
    `looplane.gid=${boot.owner.gid}`,
    `looplane.egress=${egress ? 1 : 0}`,
  ];
  if (boot.accel === 'tcg' && boot.tscKhz) cmdline.push(`tsc_early_khz=${boot.tscKhz}`);
  return [
    '-M',
    'microvm,isa-serial=on,rtc=on',
    '-accel',
    boot.accel,
    '-cpu',
    boot.accel === 'kvm' ? 'host' : 'max',
    '-smp',
    '1',
    '-m',
    String(boot.memoryMiB),
    '-nodefaults',
    '-no-user-config',
    '-display',
    'none',
    '-no-reboot',
    // QEMU's own seccomp filter. The egress forwarder (a socat per connection) needs spawning and the set*id calls a
    // spawned shell makes; QEMU runs as the session uid without capabilities, so those cannot raise anything.
    '-sandbox',
    egress ? 'on,obsolete=deny,resourcecontrol=deny' : 'on,obsolete=deny,elevateprivileges=deny,resourcecontrol=deny,spawn=deny',
    '-serial',
    `file:${qemuValue(join(boot.dir, 'console.log'))}`,
    '-kernel',
    boot.kernel,
    '-initrd',
    boot.initramfs,
    '-append',
    cmdline.join(' '),
    ...share('usr', '/usr', true),
    ...share('ws', boot.workspacePath, false),
    ...share('ctl', join(boot.dir, 'ctl'), false),
    '-device',
    'virtio-serial-device',
    '-chardev',
    `socket,id=agent,path=${qemuValue(socketPath)}`,
    '-device',
    `virtserialport,chardev=agent,name=${AGENT_PORT}`,
    ...(egress
      ? [
          '-netdev',
          `user,id=net,restrict=on,ipv6=off,net=10.0.2.0/24,guestfwd=tcp:${GUEST_PROXY.address}:${GUEST_PROXY.port}-cmd:socat STDIO UNIX-CONNECT:${qemuValue(egress)}`,
          '-device',
          'virtio-net-device,netdev=net',
        ]
      : []),
  ];
}

/** Splits a socket's bytes into space-separated lines: the first awaited, the rest handed to `onLine`. */
function lineReader(socket: Socket): { next: () => Promise<string[]>; onLine: (handler: (line: string[]) => void) => void } {
  let buffer = '';
  const queue: string[][] = [];
  let waiter: ((line: string[]) => void) | null = null;
  let handler: ((line: string[]) => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
      const line = buffer.slice(0, at).trim().split(/\s+/);
      buffer = buffer.slice(at + 1);
      if (handler) handler(line);
      else if (waiter) {
        waiter(line);
        waiter = null;
      } else queue.push(line);
    }
    if (buffer.length > 4096) buffer = '';
  });
  socket.on('error', () => undefined);
  return {
    next: () =>
      new Promise((resolve) => {
        const queued = queue.shift();
        if (queued) resolve(queued);
        else waiter = resolve;
      }),
    onLine: (next) => {
      handler = next;
      for (const line of queue.splice(0)) next(line);
    },
  };
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join(' / ').slice(-1000);
}

/** Reads at most `limit` bytes of a file. */
export async function readCapped(path: string, limit: number): Promise<{ text: string; bytes: number }> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return { text: '', bytes: 0 };
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(size, limit));
    await handle.read(buffer, 0, buffer.length, 0);
    return { text: buffer.toString('utf8'), bytes: size };
  } finally {
    await handle.close();
  }
}

/** A guest's name: its directory and its agent socket are called by it. */
export const guestName = () => randomUUID().replace(/-/g, '').slice(0, 16);
