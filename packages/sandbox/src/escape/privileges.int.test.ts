// Escape suite, privileges: setuid binaries, mount, nested namespaces, capabilities, kernel
// interfaces, and the uid the sandbox really runs as on the host.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesOf, sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { describeEachDriver } from '../testing/escape-drivers';

describeEachDriver((kind) => {
  let f: SandboxFixture;
  beforeAll(async () => {
    f = await sandboxFixture({ kind });
  });
  afterAll(() => f.close());

  describe('escape: privileges', () => {
    it('setuid binaries do not grant root: the owner is unmapped, so the bit is ignored', async () => {
      const r = await f.sh(
        `ls -l /usr/bin/mount | cut -c1-4; mount -t tmpfs none /tmp 2>&1; perl -e 'print "no_new_privs=", syscall(157, 39, 0, 0, 0, 0), "\\n"'; perl -MPOSIX -e 'POSIX::setuid(0) or print "setuid: $!\\n"'; id -u`,
      );
      expect(r.stdout).toMatch(/^-rws/); // the host's mount really is setuid root...
      expect(r.stdout).toMatch(/^no_new_privs=1$/m); // prctl(PR_GET_NO_NEW_PRIVS): gVisor's status file has no NoNewPrivs line
      if (kind === 'gvisor') {
        // gVisor's own uid 0 (the session uid on the host) with every capability set empty: mount is refused all the same.
        expect(r.stdout).toMatch(/mount: \/tmp: permission denied/);
        expect(r.stdout.trim().split('\n').pop()).toBe('0');
      } else {
        expect(r.stdout).toMatch(/must be superuser/); // ...but ran without euid 0
        expect(r.stdout).toMatch(/Invalid argument|Operation not permitted/);
        // bwrap maps the session uid onto 1000; the microVM's guest runs the command as the session uid itself.
        expect(r.stdout.trim().split('\n').pop()).toBe(kind === 'microvm' ? String(f.workspace.uid) : '1000');
      }
    });

    it('no descriptor of the worker or the launcher (cgroup files included) reaches the sandbox', async () => {
      // Only stdio (and stdin kept on fd 3 by PID 1) is open: nothing the worker or the launcher
      // held (status and seccomp channels, inherited descriptors, cgroup files) is reachable.
      const r = await f.sh('for f in /proc/[0-9]*/fd/*; do echo "$f $(readlink $f)"; done');
      expect(r.stdout).not.toMatch(/cgroup|tasks|\/sys\/|\.env/);
      const init = r.stdout.split('\n').filter((line) => line.startsWith('/proc/1/fd/'));
      if (kind === 'gvisor') {
        // gVisor hands in the three stdio descriptors only (`host:`); every other one is the shell's own, inside gVisor.
        const host = r.stdout.split('\n').filter((line) => / host:\[\d+\]$/.test(line));
        expect(host.map((line) => line.split(' ')[0]!.replace(/^\/proc\/\d+\/fd\//, ''))).toEqual(expect.arrayContaining(['0', '1', '2']));
        for (const line of host) expect(line).toMatch(/^\/proc\/\d+\/fd\/[012] /);
        return;
      }
      if (kind === 'microvm') {
        // The guest's PID 1 and agent are root's and unreadable; the command holds its call's stdio files and nothing of the host.
        expect(init).toEqual([]);
        return;
      }
      // The entry shell: stdio, and stdin kept on fd 3 for the command.
      expect(init.map((line) => line.split(' ')[0])).toEqual(['/proc/1/fd/0', '/proc/1/fd/1', '/proc/1/fd/2', '/proc/1/fd/3']);
      for (const line of init) expect(line).toMatch(/ socket:\[\d+\]$/);
    });

    it('mount fails, also for bind mounts and remounts', async () => {
      const r = await f.sh(
        'mount -t tmpfs none /tmp 2>&1; mount --bind /workspace /tmp 2>&1; mount -o remount,rw /usr 2>&1; touch /usr/x 2>&1; grep -c " /tmp " /proc/mounts',
      );
      expect(r.stdout).toMatch(kind === 'gvisor' ? /mount: \/usr: permission denied/ : /must be superuser/);
      expect(r.stdout).toMatch(kind === 'gvisor' ? /cannot touch '\/usr\/x': Permission denied/ : /Read-only file system/);
      expect(r.stdout.trim().split('\n').pop()).toBe('1');
    });

    it('unshare fails: no nested user namespace, so no namespace at all', async () => {
      const r = await f.sh('for a in -U -r -m -n -p "-m -U -r"; do unshare $a true 2>/dev/null && echo "UNSHARED $a" || echo "refused $a"; done');
      expect(r.stdout).not.toContain('UNSHARED');
      expect(r.stdout.trim().split('\n')).toHaveLength(6);
    });

    it('every capability set is empty and privileges cannot be regained', async () => {
      const r = await f.sh('grep -E "^Cap(Inh|Prm|Eff|Bnd|Amb)" /proc/self/status');
      for (const line of r.stdout.trim().split('\n')) expect(line).toMatch(/:\s+0{16}$/);
      // gVisor's kernel has no ambient set to show.
      expect(r.stdout.trim().split('\n')).toHaveLength(kind === 'gvisor' ? 4 : 5);
      expect(r.stdout).toMatch(/^CapEff:\s+0{16}$/m);
    });

    it('kernel interfaces are absent or refused (sysctl, sysrq, kmsg, kcore, /sys, modules)', async () => {
      const r = await f.sh(
        'echo 1 > /proc/sys/kernel/sysrq 2>&1; echo b > /proc/sysrq-trigger 2>&1; cat /dev/kmsg 2>&1 | head -1; head -c1 /proc/kcore 2>&1; ls /sys 2>&1; insmod /nonexistent.ko 2>&1; echo done',
      );
      expect(r.stderr).toMatch(/cannot create \/proc\/sys\/kernel\/sysrq/);
      // gVisor has no sysrq trigger, kmsg or kcore at all: they are the host kernel's, and the command never reaches it.
      if (kind === 'gvisor') expect(r.stdout).toMatch(/\/dev\/kmsg: No such file[\s\S]*\/proc\/kcore' for reading: No such file/);
      else expect(r.stderr).toMatch(/cannot create \/proc\/sysrq-trigger/);
      expect(r.stdout).not.toMatch(/ELF/);
      expect(r.stdout.trim().split('\n').pop()).toBe('done');
    });

    it('kernel attack surface is filtered by seccomp (io_uring, userfaultfd, bpf, keyrings, perf)', async (ctx) => {
      const r = await f.sh(
        `grep '^Seccomp:' /proc/self/status; perl -e 'for my $n (425, 323, 321, 250, 298) { my $r = syscall($n, 0, 0, 0, 0, 0); print "$n=$r $!\\n" }'`,
      );
      if (process.arch !== 'x64') return ctx.skip(`no seccomp syscall table for ${process.arch}`);
      if (kind === 'microvm') {
        // These calls reach only the guest's own kernel, never the host's; the guest still refuses bpf and userfaultfd to the uid (sysctls).
        for (const nr of [323, 321]) expect(r.stdout).toContain(`${nr}=-1 Operation not permitted`);
        return;
      }
      expect(r.stdout).toMatch(/^Seccomp:\s+2$/m);
      // gVisor's kernel answers the filter's errno for io_uring with EPERM (it ignores errnoRet); bwrap's filter says ENOSYS.
      expect(r.stdout).toContain(kind === 'gvisor' ? '425=-1 Operation not permitted' : '425=-1 Function not implemented');
      for (const nr of [323, 321, 250, 298]) expect(r.stdout).toContain(`${nr}=-1 Operation not permitted`);
    });

    it("the sandbox runs as the session's unprivileged host uid, never as host root", async () => {
      expect(f.workspace.uid).toBeGreaterThanOrEqual(1000);
      const running = f.sh('touch made-inside; sleep 2');
      let pids: number[] = [];
      for (let i = 0; i < 100 && pids.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        pids = await processesOf(f.workspace.uid);
      }
      expect(pids.length).toBeGreaterThan(0);
      // In a microVM the host sees QEMU, running as the session uid; the command itself runs inside the guest.
      for (const pid of pids) {
        const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
        if (!status) continue;
        const uids = /^Uid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/).map(Number);
        expect(uids).toEqual([f.workspace.uid, f.workspace.uid, f.workspace.uid, f.workspace.uid]);
      }
      await running;
      expect((await stat(join(f.workspace.path, 'made-inside'))).uid).toBe(f.workspace.uid);
    });
  });
});
