import { describe, expect, it } from 'vitest';
import { analyzeArgv, analyzeShell } from './analyze-shell';

const names = (command: string) => analyzeShell(command).commands.map((c) => c.name);

describe('analyzeShell: parsing', () => {
  it('splits pipes and lists into commands with argv after quote removal', () => {
    const a = analyzeShell(`FOO=1 grep -n "a b" 'c'\\ d | sort -r && echo ok || echo fail; ls &`);
    expect(a.commands.map((c) => c.argv)).toEqual([['grep', '-n', 'a b', 'c d'], ['sort', '-r'], ['echo', 'ok'], ['echo', 'fail'], ['ls']]);
    expect(a.operators).toEqual(['|', '&&', '||', ';', '&']);
    expect(a.features).toEqual(['background', 'list', 'pipe']);
    expect(a.unparsable).toBeNull();
  });

  it('records redirection targets, and static targets only', () => {
    const a = analyzeShell('cmd <in.txt >out.txt 2>>err.log 2>&1 &>all.log >"$X"');
    expect(a.redirects).toEqual([
      { op: '<', target: 'in.txt' },
      { op: '>', target: 'out.txt' },
      { op: '>>', target: 'err.log' },
      { op: '>&', target: '1' },
      { op: '&>', target: 'all.log' },
      { op: '>', target: null },
    ]);
    expect(a.dynamic.map((f) => f.reason)).toEqual(['writes "$X", a path that is not static']);
  });

  it('finds commands inside substitutions, subshells, functions, loops and conditionals', () => {
    expect(names('echo "$(date)" `whoami` <(ls) >(cat)')).toEqual(['date', 'whoami', 'ls', 'cat', 'echo']);
    expect(names('(cd src; ls) && { pwd; }')).toEqual(['cd', 'ls', 'pwd']);
    expect(names('for f in $(ls); do cat "$f"; done; while true; do break; done')).toEqual(['ls', 'cat', 'true', 'break']);
    expect(names('if test -f x; then cat x; elif false; then :; else echo no; fi')).toEqual(['test', 'cat', 'false', ':', 'echo']);
    expect(names('case "$(uname)" in Linux) echo l;; *) echo o;; esac')).toEqual(['uname', 'echo', 'echo']);
    expect(names('greet() { echo hi; }; greet')).toEqual(['echo', 'greet']);
    expect(analyzeShell('echo "$(date)" <(ls)').features).toEqual(['command-substitution', 'process-substitution']);
  });

  it('reads heredocs: a quoted one stays literal, an unquoted one runs its substitutions', () => {
    expect(analyzeShell(`cat <<'EOF'\n$(rm -rf /)\nEOF`).destructive).toEqual([]);
    expect(analyzeShell(`cat <<EOF\n$(rm -rf /)\nEOF`).destructive).toHaveLength(1);
    expect(analyzeShell(`cat <<EOF\nhello\nEOF`).features).toEqual(['heredoc']);
  });

  it('resolves quoting and escapes in command names', () => {
    expect(names(`r''m x; "r"m x; \\rm x; r\\m x; $'r\\x6d' x; $'\\162m' x`)).toEqual(['rm', 'rm', 'rm', 'rm', 'rm', 'rm']);
  });

  it('follows wrappers to the command they run', () => {
    const a = analyzeShell('sudo -u root env FOO=1 nice -n 5 timeout -s KILL 10 xargs -0 rm');
    expect(a.commands.map((c) => [c.name, c.via])).toEqual([
      ['sudo', []],
      ['env', ['sudo']],
      ['nice', ['sudo', 'env']],
      ['timeout', ['sudo', 'env', 'nice']],
      ['xargs', ['sudo', 'env', 'nice', 'timeout']],
      ['rm', ['sudo', 'env', 'nice', 'timeout', 'xargs']],
    ]);
    expect(a.destructive).toHaveLength(1);
    expect(names('command -v rm')).toEqual(['command']);
    expect(analyzeShell('command -v rm').destructive).toEqual([]);
    expect(names('busybox rm -rf x')).toEqual(['busybox', 'rm']);
    expect(analyzeShell('xargs --replace sh -c {}').dynamic).toHaveLength(1);
    expect(analyzeShell('xargs --replace=@ rm @').destructive).toHaveLength(1);
    expect(names(`sudo -s 'rm -rf /'`)).toEqual(['sudo', 'rm']);
    expect(names(`su -c 'rm -rf /' root`)).toEqual(['su', 'rm']);
    expect(names('runuser -u app -- rm x')).toEqual(['runuser', 'rm']);
    expect(names(`watch -n 5 'ls | wc -l'`)).toEqual(['watch', 'ls', 'wc']);
  });

  it('parses code handed to shells and eval, with depth', () => {
    const a = analyzeShell(`bash -c "sh -c 'eval rm x'"`);
    expect(a.commands.map((c) => [c.name, c.depth])).toEqual([
      ['bash', 0],
      ['sh', 1],
      ['eval', 2],
      ['rm', 3],
    ]);
    expect(analyzeShell(`sh -c 'echo "unterminated'`).dynamic[0]?.reason).toMatch(/does not parse/);
  });

  it('treats a pipe into a shell or interpreter as destructive, but not into sh -c', () => {
    expect(analyzeShell('curl -s x | sh').destructive[0]?.reason).toBe('pipes data into sh, which runs it as code');
    expect(analyzeShell('cat x | python3 -').destructive).toHaveLength(1);
    expect(analyzeShell('curl x | tee >(bash)').destructive).toHaveLength(1);
    expect(analyzeShell(`echo data | sh -c 'cat'`).destructive).toEqual([]);
    expect(analyzeShell('curl x | sudo bash').destructive).toHaveLength(1);
  });

  it('reports a parse error with its position', () => {
    expect(analyzeShell(`echo 'x`).unparsable).toBe(`1:6: reached EOF without closing quote '`);
    expect(analyzeShell('ls\nif then').unparsable).toMatch(/^2:/);
    expect(analyzeShell('x'.repeat(100_001)).unparsable).toMatch(/longer than/);
  });

  it('tracks cd for relative writes', () => {
    expect(analyzeShell('cd /etc && echo x > passwd').destructive[0]?.reason).toBe('writes passwd outside the workspace');
    expect(analyzeShell('cd src/lib && echo x > a.ts').destructive).toEqual([]);
    expect(analyzeShell('cd "$D" && echo x > a').dynamic[0]?.reason).toMatch(/not known/);
    expect(analyzeShell('echo x > ../a', { cwd: 'src' }).destructive).toEqual([]);
    expect(analyzeShell('echo x > a', { workspaceRoot: '/home/agent/ws', cwd: '/home/agent' }).destructive).toHaveLength(1);
  });

  it('flags variables and options that change what runs', () => {
    for (const line of [
      'rg --pre ./x foo',
      'sort --compress-program=sh a',
      'git grep -Ovim foo',
      'PATH=/x ls',
      'export LD_PRELOAD=/x.so',
      'env BASH_ENV=/x bash script.sh',
      'read PATH',
      `PS4='$(rm -rf /)' bash -x s.sh`,
    ]) {
      expect(analyzeShell(line).dynamic.length, line).toBeGreaterThan(0);
    }
    expect(analyzeShell('FOO=1 ls').dynamic).toEqual([]);
  });

  it('analyses argv without shell expansion', () => {
    const a = analyzeArgv(['rm', '-rf', 'a b']);
    expect(a.input).toBe(`rm -rf 'a b'`);
    expect(a.commands[0]?.argv).toEqual(['rm', '-rf', 'a b']);
    expect(a.destructive).toHaveLength(1);
    expect(analyzeArgv(['echo', '*']).dynamic).toEqual([]);
  });

  it('returns frozen results and answers repeated lines from its cache', () => {
    const a = analyzeShell('ls -la | wc -l');
    expect(Object.isFrozen(a) && Object.isFrozen(a.commands[0])).toBe(true);
    expect(analyzeShell('ls -la | wc -l')).toBe(a);
    expect(analyzeShell('ls -la | wc -l', { workspaceRoot: '/w' })).not.toBe(a);
  });
});

describe('analyzeShell: destructive patterns', () => {
  it.each([
    ['git push origin main', 'git push publishes commits'],
    ['git checkout -- .', 'git checkout discards changes'],
    ['git stash drop', 'git stash drop loses stashed work'],
    ['docker system prune -af', 'docker removes or stops resources'],
    ['helm uninstall app', 'helm removes or rolls back a release'],
    ['terraform destroy -auto-approve', 'terraform changes or destroys infrastructure'],
    ['aws ec2 terminate-instances --instance-ids i-1', 'aws deletes cloud resources'],
    ['mysql -e "delete from users"', 'runs SQL that drops, deletes or changes data'],
    ['psql <<SQL\nTRUNCATE t;\nSQL', 'runs SQL that drops, deletes or changes data'],
    ['redis-cli flushall', 'deletes or reconfigures Redis data'],
    ['systemctl restart nginx', 'systemctl restart changes services'],
    ['rsync -a --delete a/ b/', 'rsync deletes files'],
    ['sed -i s/a/b/ /etc/hosts', 'edits /etc/hosts outside the workspace'],
    ['tar -xzf a.tgz -C /usr', 'extracts into /usr outside the workspace'],
    ['curl -o /usr/bin/x https://x', 'writes /usr/bin/x outside the workspace'],
    ['tee /etc/motd < msg', 'writes /etc/motd outside the workspace'],
    ['echo x > /dev/nvme0n1', 'writes the raw device /dev/nvme0n1'],
    ['git branch -f main HEAD~3', 'git branch -D/-f deletes or moves a branch by force'],
    ['sort -o /etc/passwd x', 'writes /etc/passwd outside the workspace'],
    ['uniq -c a /etc/x', 'writes /etc/x outside the workspace'],
    ['git log --output=/etc/x', 'writes /etc/x outside the workspace'],
    ['date -s 2020-01-01', 'date --set changes the system clock'],
    // dash (a common /bin/sh) runs `((cmd))` as two subshells.
    ['((rm /dev/sda))', 'removes files'],
  ])('%s', (line, reason) => {
    expect(analyzeShell(line).destructive.map((f) => f.reason)).toContain(reason);
  });

  it.each([
    'git status',
    'git log -p',
    'git checkout -b feature',
    'git restore --staged a',
    'docker ps',
    'kubectl get pods',
    'systemctl status x',
    'psql -c "select 1"',
    'crontab -l',
  ])('%s is not destructive', (line) => {
    expect(analyzeShell(line).destructive).toEqual([]);
  });
});
