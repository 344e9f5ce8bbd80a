import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepts } from './free-port';
import {
  type BareRepository,
  createBareRepository,
  type GitHttpServer,
  generateSshKey,
  type SshGitServer,
  startGitHttpServer,
  startSshGitServer,
} from './index';
import { cleanGitEnv } from './run-command';

const PASSWORD = 'team-secret-7f3a';

let root: string;
let scratch: string;
let repo: BareRepository;

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real git CLI, never prompting, without the machine's global or system config. */
function git(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitResult> {
  const env = cleanGitEnv({
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    ...options.env,
  });
  return new Promise((resolve) => {
    execFile('git', args, { cwd: options.cwd ?? scratch, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr });
    });
  });
}

function basic(user: string, password: string): string[] {
  const token = Buffer.from(`${user}:${password}`).toString('base64');
  return ['-c', `http.extraHeader=Authorization: Basic ${token}`];
}

const identity = ['-c', 'user.name=Pusher', '-c', 'user.email=pusher@looplane.invalid'];

async function commitFile(cwd: string, name: string): Promise<string> {
  await writeFile(join(cwd, name), `${name}\n`);
  expect((await git(['add', name], { cwd })).code).toBe(0);
  expect((await git([...identity, 'commit', '-q', '-m', `add ${name}`], { cwd })).code).toBe(0);
  return (await git(['rev-parse', 'HEAD'], { cwd })).stdout.trim();
}

async function refOf(ref: string): Promise<string> {
  return (await git(['--git-dir', repo.path, 'rev-parse', '--verify', '--quiet', ref])).stdout.trim();
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'git-servers-root-'));
  scratch = await mkdtemp(join(tmpdir(), 'git-servers-work-'));
  repo = await createBareRepository(
    root,
    'widgets',
    { 'README.md': '# widgets\n', 'src/main.ts': 'export {};\n', 'data.bin': Buffer.from([0, 1, 2, 255]) },
    { extraBranches: { feature: { 'feature.txt': 'on feature\n' }, mirror: {} }, tags: ['v1'] },
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

describe('createBareRepository', () => {
  it('gives the same commit for the same files, with the asked branches and tags', async () => {
    const other = await mkdtemp(join(tmpdir(), 'git-servers-again-'));
    try {
      const again = await createBareRepository(
        other,
        'widgets.git',
        { 'data.bin': Buffer.from([0, 1, 2, 255]), 'src/main.ts': 'export {};\n', 'README.md': '# widgets\n' },
        {},
      );
      expect(again.headCommit).toBe(repo.headCommit);
      expect(again.path).toBe(join(other, 'widgets.git'));
    } finally {
      await rm(other, { recursive: true, force: true });
    }
    expect(repo.path).toBe(join(root, 'widgets.git'));
    expect(await refOf('HEAD')).toBe(repo.headCommit);
    expect(await refOf('refs/heads/main')).toBe(repo.headCommit);
    expect(await refOf('refs/tags/v1')).toBe(repo.headCommit);
    expect(await refOf('refs/heads/mirror')).toBe(repo.headCommit);
    expect(await refOf('refs/heads/feature')).toBe(repo.branches.feature);
    const tree = await git(['--git-dir', repo.path, 'ls-tree', '-r', '--name-only', 'feature']);
    expect(tree.stdout.split('\n').filter(Boolean)).toEqual(['README.md', 'data.bin', 'feature.txt', 'src/main.ts']);
  });
});

describe('startGitHttpServer', () => {
  let server: GitHttpServer;
  beforeAll(async () => {
    server = await startGitHttpServer({ root, users: { alice: PASSWORD } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('clones with the right Basic credentials and logs who asked, never the password', async () => {
    expect(server.url('widgets')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/widgets\.git$/);
    const before = server.requests.length;
    const clone = await git([...basic('alice', PASSWORD), 'clone', '-q', server.url('widgets'), 'http-clone']);
    expect(clone.stderr).toBe('');
    expect(clone.code).toBe(0);
    expect(await git(['rev-parse', 'HEAD'], { cwd: join(scratch, 'http-clone') })).toMatchObject({
      stdout: `${repo.headCommit}\n`,
    });
    const made = server.requests.slice(before);
    // Protocol v2 posts twice (ls-refs, then fetch); v0 once.
    const [discovery, ...posts] = made.map((r) => `${r.method} ${r.path}`);
    expect(discovery).toBe('GET /widgets.git/info/refs');
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) expect(post).toBe('POST /widgets.git/git-upload-pack');
    for (const request of made) {
      expect(request).toMatchObject({ authPresent: true, user: 'alice', authorized: true, status: 200 });
    }
    expect(JSON.stringify(server.requests)).not.toContain(PASSWORD);
  });

  it('refuses a wrong password and a request without credentials with 401', async () => {
    const before = server.requests.length;
    const wrong = await git([...basic('alice', 'not-it'), 'clone', '-q', server.url('widgets'), 'wrong-clone']);
    expect(wrong.code).not.toBe(0);
    const anonymous = await git(['clone', '-q', server.url('widgets'), 'anonymous-clone']);
    expect(anonymous.code).not.toBe(0);
    expect(server.requests.slice(before)).toEqual([
      expect.objectContaining({ user: 'alice', authPresent: true, authorized: false, status: 401 }),
      expect.objectContaining({ user: null, authPresent: false, authorized: false, status: 401 }),
    ]);
  });

  it('pushes a new branch only with credentials', async () => {
    const cwd = join(scratch, 'http-clone');
    const commit = await commitFile(cwd, 'http-change.txt');
    const refused = await git(['push', '-q', 'origin', 'HEAD:refs/heads/looplane/http-anon'], { cwd });
    expect(refused.code).not.toBe(0);
    expect(await refOf('refs/heads/looplane/http-anon')).toBe('');

    const before = server.requests.length;
    const push = await git([...basic('alice', PASSWORD), 'push', '-q', 'origin', 'HEAD:refs/heads/looplane/http'], {
      cwd,
    });
    expect(push.stderr).toBe('');
    expect(push.code).toBe(0);
    expect(await refOf('refs/heads/looplane/http')).toBe(commit);
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.query} ${r.status} ${r.user}`)).toEqual([
      'GET /widgets.git/info/refs service=git-receive-pack 200 alice',
      'POST /widgets.git/git-receive-pack  200 alice',
    ]);
  });

  it('holds a push until released: refused, it never reaches the repository; served, it lands', async () => {
    const held = await startGitHttpServer({ root, users: { alice: PASSWORD }, holdReceivePack: true });
    try {
      const cwd = join(scratch, 'http-clone');
      const commit = await commitFile(cwd, 'held-change.txt');
      const push = (on: GitHttpServer, ref: string) => git([...basic('alice', PASSWORD), 'push', '-q', on.url('widgets'), `HEAD:${ref}`], { cwd });
      const heldOn = async (on: GitHttpServer, count = 1) => {
        while (on.heldReceivePacks() < count) await new Promise((resolve) => setTimeout(resolve, 20));
      };
      // A clone is not held.
      expect((await git([...basic('alice', PASSWORD), 'ls-remote', held.url('widgets')])).code).toBe(0);
      const refused = push(held, 'refs/heads/looplane/refused');
      await heldOn(held);
      expect(await refOf('refs/heads/looplane/refused')).toBe('');
      held.releaseReceivePack('refuse');
      expect((await refused).code).not.toBe(0);
      expect(await refOf('refs/heads/looplane/refused')).toBe('');
      expect(held.requests.at(-1)).toMatchObject({ method: 'POST', path: '/widgets.git/git-receive-pack', status: 503 });

      const again = await startGitHttpServer({ root, users: { alice: PASSWORD }, holdReceivePack: true });
      try {
        const served = push(again, 'refs/heads/looplane/served');
        await heldOn(again, 1);
        const later = push(again, 'refs/heads/looplane/later');
        await heldOn(again, 2);
        expect(await refOf('refs/heads/looplane/served')).toBe('');
        // The oldest alone; the other stays held.
        again.releaseReceivePack('serve', 1);
        expect((await served).code).toBe(0);
        expect(await refOf('refs/heads/looplane/served')).toBe(commit);
        expect(again.heldReceivePacks()).toBe(1);
        expect(await refOf('refs/heads/looplane/later')).toBe('');
        again.releaseReceivePack('serve');
        expect((await later).code).toBe(0);
        expect(await refOf('refs/heads/looplane/later')).toBe(commit);
        expect(again.heldReceivePacks()).toBe(0);
        // Released for good: the next push is served at once.
        expect((await push(again, 'refs/heads/looplane/after')).code).toBe(0);
      } finally {
        await again.close();
      }
    } finally {
      await held.close();
    }
  });
});

describe('startSshGitServer', () => {
  let server: SshGitServer;
  let sshCommand: string;
  let strangerCommand: string;
  beforeAll(async () => {
    const [key, stranger] = await Promise.all([generateSshKey(), generateSshKey()]);
    server = await startSshGitServer({ root, authorizedKeys: [key.publicKey] });
    const keyFile = join(scratch, 'id_ed25519');
    const strangerFile = join(scratch, 'stranger_ed25519');
    const knownHosts = join(scratch, 'known_hosts');
    await writeFile(keyFile, key.privateKey, { mode: 0o600 });
    await writeFile(strangerFile, stranger.privateKey, { mode: 0o600 });
    await writeFile(knownHosts, `${server.knownHosts}\n`);
    const ssh = (identityFile: string) =>
      `ssh -F /dev/null -i ${identityFile} -o IdentitiesOnly=yes -o BatchMode=yes -o UserKnownHostsFile=${knownHosts} -o StrictHostKeyChecking=yes -p ${server.port}`;
    sshCommand = ssh(keyFile);
    strangerCommand = ssh(strangerFile);
  });
  afterAll(async () => {
    await server.close();
  });

  it('clones and pushes a new branch with the authorized key, checking the host key', async () => {
    expect(server.url('widgets')).toBe(`ssh://${server.user}@127.0.0.1:${server.port}${repo.path}`);
    const env = { GIT_SSH_COMMAND: sshCommand };
    const clone = await git(['clone', '-q', server.url('widgets'), 'ssh-clone'], { env });
    expect(clone.stderr).toBe('');
    expect(clone.code).toBe(0);
    const cwd = join(scratch, 'ssh-clone');
    expect((await git(['rev-parse', 'HEAD'], { cwd })).stdout.trim()).toBe(repo.headCommit);

    const commit = await commitFile(cwd, 'ssh-change.txt');
    const push = await git(['push', '-q', 'origin', 'HEAD:refs/heads/looplane/ssh'], { cwd, env });
    expect(push.stderr).toBe('');
    expect(push.code).toBe(0);
    expect(await refOf('refs/heads/looplane/ssh')).toBe(commit);
  });

  it('refuses a key that is not authorized', async () => {
    const clone = await git(['clone', '-q', server.url('widgets'), 'stranger-clone'], {
      env: { GIT_SSH_COMMAND: strangerCommand },
    });
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain('Permission denied (publickey)');
  });

  it('runs nothing but git for an authorized key', async () => {
    const shell = await new Promise<GitResult>((resolve) => {
      execFile('sh', ['-c', `${sshCommand} ${server.user}@127.0.0.1 id`], (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }));
    });
    expect(shell.code).not.toBe(0);
    expect(shell.stdout).toBe('');
    expect(shell.stderr).toContain("unrecognized command 'id'");
  });
});

describe('close', () => {
  it('stops both servers: their ports accept nothing afterwards', async () => {
    const http = await startGitHttpServer({ root, users: {} });
    const ssh = await startSshGitServer({ root, authorizedKeys: [] });
    expect(await accepts(http.port)).toBe(true);
    expect(await accepts(ssh.port)).toBe(true);
    await Promise.all([http.close(), ssh.close()]);
    expect(await accepts(http.port)).toBe(false);
    expect(await accepts(ssh.port)).toBe(false);
  });
});
