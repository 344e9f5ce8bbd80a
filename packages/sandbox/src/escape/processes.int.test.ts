// Escape suite, processes: outliving the call, reaching host processes, and cancellation.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { describeEachDriver } from '../testing/escape-drivers';

describeEachDriver((kind) => {
  let f: SandboxFixture;
  let hostSleeper: ChildProcess;

  beforeAll(async () => {
    f = await sandboxFixture({ kind });
    // A host process with the sandbox's own uid: the strongest target, since permissions would allow it.
    hostSleeper = spawn('sleep', ['120'], { uid: f.workspace.uid, gid: f.workspace.gid, stdio: 'ignore' });
  });
  afterAll(async () => {
    hostSleeper.kill('SIGKILL');
    await new Promise((resolve) => (hostSleeper.exitCode !== null || hostSleeper.signalCode ? resolve(null) : hostSleeper.once('exit', resolve)));
    await f.close();
  });

  async function sandboxProcesses(): Promise<string[]> {
    return (await f.leftovers()).filter((line) => line !== `host ${hostSleeper.pid} sleep`);
  }

  describe('escape: processes', () => {
    it('a background process does not outlive the call', async () => {
      const started = Date.now();
      const r = await f.tool('shell', { command: 'sleep 300 & echo started' });
      expect(r).toMatchObject({ ok: true });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await sandboxProcesses()).toEqual([]);
    });

    it('setsid, nohup and double-forked daemons do not outlive the call', async () => {
      const r = await f.sh('setsid sleep 300 & nohup sleep 301 >/dev/null 2>&1 & (setsid sh -c "sleep 302 &" &); (trap "" HUP TERM; exec sleep 303) & echo ok');
      expect(r.stdout).toBe('ok\n');
      expect(await sandboxProcesses()).toEqual([]);
    });

    it('a cancelled call is killed at once, throws for the engine, and leaves no process behind', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('run cancelled')), 300);
      const started = Date.now();
      await expect(f.tool('shell', { command: 'sleep 300 & setsid sleep 300 & sleep 300' }, controller.signal)).rejects.toThrow('run cancelled');
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await sandboxProcesses()).toEqual([]);
    });

    it('a timed-out call leaves no process behind, even one ignoring signals', async () => {
      const r = await f.sh('trap "" TERM INT HUP; sleep 300 & setsid sleep 300 & while :; do :; done', { wallTimeMs: 800 });
      expect(r.killedBy).toBe('timeout');
      expect(await sandboxProcesses()).toEqual([]);
    });

    it('killing host processes fails: they are not in the PID namespace, even with the same uid', async () => {
      const r = await f.sh(`kill -9 ${hostSleeper.pid} ${process.pid} 1 2>&1; kill -9 -1 2>&1; echo done`);
      expect(r.stdout).toMatch(/No such process/);
      expect(hostSleeper.exitCode).toBeNull();
      expect(hostSleeper.signalCode).toBeNull();
      expect(process.kill(hostSleeper.pid as number, 0)).toBe(true);
    });

    it('ptrace of the worker (or of a same-uid host process) fails', async () => {
      // x86_64: ptrace is syscall 101, PTRACE_ATTACH is 16.
      const attach = (pid: number) => `perl -e 'my $r = syscall(101, 16, ${pid}, 0, 0); print $r == -1 ? "attach ${pid}: $!\\n" : "ATTACHED ${pid}\\n"'`;
      const r = await f.sh(
        `${attach(process.pid)}; ${attach(hostSleeper.pid as number)}; strace -p ${process.pid} 2>&1 | head -1; cat /proc/${process.pid}/mem 2>&1 | head -c 80`,
      );
      expect(r.stdout).not.toContain('ATTACHED');
      expect(r.stdout).toContain(`attach ${process.pid}: No such process`);
      expect(r.stdout).toContain(`attach ${hostSleeper.pid}: No such process`);
    });
  });
});
