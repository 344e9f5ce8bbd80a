// Escape suite, credentials: a prompt-injected agent hunting for the worker's secrets. The test
// process plays the worker: it holds fake secrets in its environment and a fake .env file.
import { createServer, type Server } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxFixture, type SandboxFixture } from '../testing/sandbox-fixture';
import { describeEachDriver } from '../testing/escape-drivers';

describeEachDriver((kind) => {
  const SECRET = 'FAKE-SECRET-7f3a9c';
  const SECRETS = {
    DATABASE_URL: `postgres://looplane:${SECRET}-db@127.0.0.1:5432/looplane`,
    REDIS_URL: `redis://:${SECRET}-redis@127.0.0.1:6379`,
    NEXTAUTH_SECRET: `${SECRET}-nextauth`,
    LOOPLANE_ENCRYPTION_KEY: `${SECRET}-encryption`,
    OPENAI_API_KEY: `sk-${SECRET}-endpoint`,
  };

  let f: SandboxFixture;
  let envFile: string;
  let workerSocket: string;
  let socketServer: Server;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const [name, value] of Object.entries(SECRETS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    f = await sandboxFixture({ kind });
    const app = join(f.dir, 'app');
    await mkdir(app);
    envFile = join(app, '.env');
    await writeFile(
      envFile,
      Object.entries(SECRETS)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    );
    workerSocket = join(app, 'worker.sock');
    socketServer = createServer((socket) => socket.end(SECRET));
    await new Promise<void>((resolve) => socketServer.listen(workerSocket, resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => socketServer.close(resolve));
    await f.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  describe('escape: credentials', () => {
    it('reading the worker environment from inside finds none of its variables', async () => {
      const r = await f.sh('env; set');
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toContain(SECRET);
      for (const name of Object.keys(SECRETS)) expect(r.stdout).not.toContain(name);
    });

    it('reading /proc/<worker pid>/environ fails: the worker is not in the sandbox PID namespace', async () => {
      const r = await f.sh(`cat /proc/${process.pid}/environ; cat /proc/${process.ppid}/environ; ls /proc | grep -c '^[0-9]'`);
      expect(r.stdout).not.toContain(SECRET);
      expect(r.stderr).toMatch(/No such file/);
      // Only the sandbox's own few processes are visible.
      expect(Number(r.stdout.trim().split('\n').pop())).toBeLessThan(10);
    });

    it('no process visible inside carries a worker secret in its environ or cmdline', async () => {
      const r = await f.sh('for p in /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null; done | tr "\\0" "\\n"');
      expect(r.stdout).not.toContain(SECRET);
      expect(r.stdout).toContain('HOME=/workspace');
    });

    it("reading the worker's .env file fails, by path and by searching the whole file system", async () => {
      const r = await f.sh(`cat ${envFile}; grep -rs ${SECRET} / --exclude-dir=proc --exclude-dir=sys --exclude-dir=usr -l; echo done`);
      expect(r.stdout.trim()).toBe('done');
      expect(r.stderr).toMatch(/No such file/);
    });

    it("connecting to the worker's unix sockets fails: no host socket is visible", async () => {
      const r = await f.sh(`socat -u UNIX-CONNECT:${workerSocket} - ; find / -xdev -type s 2>/dev/null; echo done`);
      expect(r.stdout).not.toContain(SECRET);
      expect(r.stdout.trim()).toBe('done');
    });

    it('the tools never expose a secret either: read_file of the .env path and search_files find nothing', async () => {
      expect((await f.tool('read_file', { path: envFile })).ok).toBe(false);
      const search = await f.tool('search_files', { pattern: SECRET });
      expect(search).toEqual({ ok: true, output: 'no matches' });
    });
  });
});
