import { describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap-args';
import { bwrapVersionOk } from './bwrap-probe';
import { launcherScript } from './launcher';
import { baseEnv, entryScript } from './sandbox-env';

const input = {
  argv: ['echo', 'hi'],
  workspacePath: '/ws/s1/work',
  cwd: '/workspace',
  env: baseEnv(false),
  tmpBytes: 1024 * 1024,
  system: [
    { kind: 'bind' as const, path: '/usr' },
    { kind: 'symlink' as const, path: '/bin', target: 'usr/bin' },
  ],
  etc: { passwd: '/state/etc/passwd', group: '/state/etc/group', hosts: '/state/etc/hosts' },
  extraReadOnly: [],
  statusFd: 3,
};

function pairs(args: string[], flag: string): string[][] {
  return args.flatMap((a, i) => (a === flag ? [args.slice(i + 1, i + 3)] : []));
}

describe('bwrap arguments', () => {
  it('unshares everything, forbids nested namespaces, drops capabilities and clears the environment', () => {
    const args = bwrapArgs(input);
    for (const flag of ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session', '--as-pid-1', '--clearenv'])
      expect(args).toContain(flag);
    expect(args.slice(args.indexOf('--cap-drop'), args.indexOf('--cap-drop') + 2)).toEqual(['--cap-drop', 'ALL']);
    expect(args).not.toContain('--share-net');
    expect(args).not.toContain('--bind-try');
  });

  it('binds system dirs read-only, only the workspace read-write, and makes / and /dev read-only', () => {
    const args = bwrapArgs(input);
    expect(pairs(args, '--bind')).toEqual([['/ws/s1/work', '/workspace']]);
    expect(pairs(args, '--ro-bind')).toContainEqual(['/usr', '/usr']);
    expect(pairs(args, '--symlink')).toContainEqual(['usr/bin', '/bin']);
    expect(args.join(' ')).toContain('--size 1048576 --tmpfs /tmp');
    expect(args.join(' ')).toContain('--remount-ro /dev --remount-ro /');
    // The remounts come after every mount they must not undo.
    expect(args.indexOf('--remount-ro')).toBeGreaterThan(args.lastIndexOf('--bind'));
  });

  it('runs the command under the reaping entry shell; with egress, the proxy socket is the only way out', () => {
    const plain = bwrapArgs(input);
    expect(plain.slice(plain.indexOf('--') + 1)).toEqual([...entryScript({ egress: false, reaper: true }), 'echo', 'hi']);
    const egress = bwrapArgs({ ...input, egressSocket: '/run/looplane/egress.sock', env: baseEnv(true) });
    expect(pairs(egress, '--ro-bind')).toContainEqual(['/run/looplane/egress.sock', '/run/egress.sock']);
    expect(egress.join(' ')).toContain('HTTPS_PROXY http://127.0.0.1:3128');
    expect(egress.slice(egress.indexOf('--') + 3).join(' ')).toContain('socat TCP-LISTEN:3128,bind=127.0.0.1');
  });

  it('the environment is the sandbox’s own, never the worker’s', () => {
    expect(Object.keys(baseEnv(false)).sort()).toEqual(['HOME', 'LANG', 'LOGNAME', 'PATH', 'TMPDIR', 'USER']);
  });
});

describe('launcher script', () => {
  it('waits for the go line, sets rlimits in the units of the shell, then execs bwrap', () => {
    const dash = launcherScript([], { fileBytes: 1024 * 1024, processes: 64, addressSpaceBytes: 1024 * 1024 * 1024 });
    expect(dash.shell).toBe('/bin/sh');
    expect(dash.script.split('\n')).toEqual(['read -r go <&3 || exit 125', 'ulimit -c 0', 'ulimit -f 2048', 'ulimit -p 64', 'ulimit -v 1048576', 'exec "$@"']);
  });

  it('on cgroup v1 moves itself in through its tasks files before anything else', () => {
    const v1 = launcherScript([9], { fileBytes: 1024 * 1024 }, { kind: 'attach', files: ['/sys/fs/cgroup/pids/x/tasks', "/odd/it's/tasks"] });
    expect(v1.shell).toBe('/bin/sh');
    const lines = v1.script.split('\n');
    expect(lines[0]).toBe(`echo 0 >'/sys/fs/cgroup/pids/x/tasks' && echo 0 >'/odd/it'\\''s/tasks' || exit 125`);
    expect(lines[1]).toBe('exec 9>&-');
    expect(v1.script).not.toContain('read -r go');
  });

  it('without a cgroup starts at once', () => {
    expect(launcherScript([], { fileBytes: 512 }, { kind: 'none' }).script.split('\n')[0]).toBe('ulimit -c 0');
  });

  it('closes inherited descriptors, with bash when one is above 9', () => {
    const bash = launcherScript([7, 251], { fileBytes: 1024 * 1024 });
    expect(bash.shell).toBe('/bin/bash');
    expect(bash.script).toContain('exec 7>&- 251>&-');
    expect(bash.script).toContain('ulimit -f 1024');
  });
});

describe('bwrap version', () => {
  it('needs 0.8 for --disable-userns', () => {
    expect(bwrapVersionOk('bubblewrap 0.8.0')).toBe(true);
    expect(bwrapVersionOk('bubblewrap 0.11.1')).toBe(true);
    expect(bwrapVersionOk('bubblewrap 0.7.0')).toBe(false);
    expect(bwrapVersionOk('garbage')).toBe(false);
  });
});
