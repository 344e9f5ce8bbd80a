import { type Frame, type ScanState, destructive, dynamic } from './scan-state';
import type { ResolvedWord } from './words';

/** Programs that are destructive whatever their arguments: each one changes or destroys state outside the line. */
const ALWAYS: Record<string, string> = {
  rm: 'removes files',
  rmdir: 'removes directories',
  unlink: 'removes a file',
  shred: 'overwrites and removes files',
  srm: 'removes files',
  wipe: 'wipes files',
  dd: 'copies raw blocks',
  mke2fs: 'formats a file system',
  mkswap: 'formats swap',
  fdisk: 'edits partitions',
  sfdisk: 'edits partitions',
  cfdisk: 'edits partitions',
  gdisk: 'edits partitions',
  parted: 'edits partitions',
  wipefs: 'wipes file system signatures',
  blkdiscard: 'discards a block device',
  chmod: 'changes file permissions',
  chown: 'changes file ownership',
  chgrp: 'changes file group',
  chattr: 'changes file attributes',
  setfacl: 'changes access control lists',
  kill: 'signals processes',
  pkill: 'signals processes',
  killall: 'signals processes',
  skill: 'signals processes',
  shutdown: 'stops the machine',
  reboot: 'restarts the machine',
  halt: 'stops the machine',
  poweroff: 'stops the machine',
  telinit: 'changes the run level',
  useradd: 'changes users',
  userdel: 'removes users',
  usermod: 'changes users',
  groupdel: 'removes groups',
  passwd: 'changes passwords',
  chpasswd: 'changes passwords',
  visudo: 'changes sudo rules',
  mount: 'mounts file systems',
  umount: 'unmounts file systems',
  swapoff: 'disables swap',
  iptables: 'changes the firewall',
  ip6tables: 'changes the firewall',
  nft: 'changes the firewall',
  ufw: 'changes the firewall',
  insmod: 'loads kernel modules',
  rmmod: 'removes kernel modules',
  modprobe: 'loads kernel modules',
};

/** Programs whose arguments decide whether they are destructive: an argument that is not static makes them unclassifiable. */
const ARGUMENT_SENSITIVE = new Set([
  'git',
  'find',
  'docker',
  'podman',
  'nerdctl',
  'kubectl',
  'oc',
  'helm',
  'terraform',
  'tofu',
  'pulumi',
  'aws',
  'gcloud',
  'az',
  'gsutil',
  'npm',
  'pnpm',
  'yarn',
  'systemctl',
  'service',
  'psql',
  'mysql',
  'mariadb',
  'sqlite3',
  'redis-cli',
  'crontab',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'tar',
  'rsync',
  'unzip',
]);

const GIT_GLOBAL_VALUE = new Set(['-C', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--super-prefix', '--config-env']);

/** The git subcommand and its arguments, past git's own options; `-c` (config that can run programs) is reported. */
function gitSubcommand(args: string[]): { sub: string | undefined; rest: string[]; config: boolean } {
  let i = 0;
  let config = false;
  while (i < args.length && (args[i] as string).startsWith('-')) {
    const arg = args[i] as string;
    if (arg === '-c' || arg.startsWith('--config-env')) config = true;
    i += arg === '-c' || GIT_GLOBAL_VALUE.has(arg) ? 2 : 1;
  }
  return { sub: args[i], rest: args.slice(i + 1), config };
}

const has = (args: string[], ...flags: string[]) => args.some((a) => flags.includes(a));
/** A short-option cluster (`-fdx`) or the long form that contains flag `letter`. */
const hasShort = (args: string[], letter: string, long?: string) =>
  args.some((a) => (/^-[a-zA-Z]+$/.test(a) && a.includes(letter)) || (long !== undefined && a === long));

const GIT_CONFIG_WRITES = new Set([
  '--add',
  '--unset',
  '--unset-all',
  '--replace-all',
  '--rename-section',
  '--remove-section',
  '-e',
  '--edit',
  'set',
  'unset',
  'rename-section',
  'remove-section',
  'edit',
]);
const GIT_CONFIG_VALUE = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);

/** Whether `git config ARGS` writes: a write option or subcommand, or the legacy `git config NAME VALUE`. */
function gitConfigWrites(args: string[]): boolean {
  if (args.some((a) => GIT_CONFIG_WRITES.has(a))) return true;
  const operands = args.filter((a, i) => !a.startsWith('-') && !GIT_CONFIG_VALUE.has(args[i - 1] ?? ''));
  const reads =
    args.some((a) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|-l|--list)$/.test(a)) ||
    ['get', 'list'].includes(operands[0] ?? '');
  return !reads && operands.length >= 2;
}

function gitReason(args: string[]): string | null {
  const { sub, rest } = gitSubcommand(args);
  switch (sub) {
    case 'push':
      return 'git push publishes commits';
    case 'reset':
      return has(rest, '--hard', '--merge', '--keep') ? 'git reset --hard discards work' : null;
    case 'clean':
      return hasShort(rest, 'f', '--force') ? 'git clean -f removes untracked files' : null;
    case 'branch':
      return hasShort(rest, 'D') || hasShort(rest, 'M') || hasShort(rest, 'f', '--force') ? 'git branch -D/-f deletes or moves a branch by force' : null;
    case 'checkout':
      return hasShort(rest, 'f', '--force') || rest.includes('--') || rest.includes('.') ? 'git checkout discards changes' : null;
    case 'restore':
      return rest.includes('--staged') && !rest.includes('--worktree') ? null : 'git restore discards changes';
    case 'stash':
      return rest[0] === 'drop' || rest[0] === 'clear' ? 'git stash drop loses stashed work' : null;
    case 'tag':
      return hasShort(rest, 'd', '--delete') ? 'git tag -d deletes a tag' : null;
    case 'rm':
      return 'git rm removes files';
    case 'filter-branch':
    case 'filter-repo':
      return 'rewrites history';
    case 'update-ref':
      return hasShort(rest, 'd') ? 'git update-ref -d deletes a ref' : null;
    case 'reflog':
      return rest[0] === 'expire' || rest[0] === 'delete' ? 'git reflog expire drops history' : null;
    case 'gc':
      return rest.some((a) => a.startsWith('--prune')) ? 'git gc --prune drops objects' : null;
    case 'config':
      return gitConfigWrites(rest) ? 'git config changes configuration, which can name programs git runs later (aliases, core.fsmonitor, hooks)' : null;
    default:
      return null;
  }
}

const CONTAINER_VERBS = new Set(['rm', 'rmi', 'kill', 'stop', 'prune', 'down', 'delete', 'remove']);
const PUBLISH_VERBS = new Set(['publish', 'unpublish', 'deprecate', 'owner', 'dist-tag', 'access', 'token']);
const SYSTEMCTL_READ = /^(status|show|cat|help|is-.*|list-.*)$/;
/** SQL that drops, deletes or rewrites data or rights. A keyword test over the statement text, not a SQL parser. */
const DESTRUCTIVE_SQL = /\b(drop|truncate|delete|alter|update|grant|revoke)\b/i;

function sqlReason(sql: string): string | null {
  return DESTRUCTIVE_SQL.test(sql) ? 'runs SQL that drops, deletes or changes data' : null;
}

/** The SQL a client runs from its argv, from a heredoc, or null when it reads it from elsewhere. */
function sqlFromClient(name: string, args: string[], frame: Frame): { sql: string | null; source: string } {
  const flag = name === 'psql' ? ['-c', '--command'] : name === 'sqlite3' ? [] : ['-e', '--execute'];
  const parts: string[] = [];
  args.forEach((arg, i) => {
    for (const f of flag) {
      if (arg === f && args[i + 1] !== undefined) parts.push(args[i + 1] as string);
      else if (arg.startsWith(`${f}=`)) parts.push(arg.slice(f.length + 1));
    }
  });
  if (name === 'sqlite3') parts.push(...args.filter((a) => !a.startsWith('-')).slice(1));
  if (parts.length > 0) return { sql: parts.join(';'), source: 'argv' };
  if (args.some((a) => a === '-f' || a.startsWith('--file'))) return { sql: null, source: 'a file' };
  if (frame.stdin.kind === 'text') return { sql: frame.stdin.text, source: 'a heredoc' };
  if (frame.stdin.kind === 'pipe') return { sql: null, source: 'a pipe' };
  return { sql: '', source: 'argv' };
}

/** A reason `name args` is destructive, or null. */
function reasonFor(name: string, args: string[], frame: Frame, state: ScanState, label: string): string | null {
  if (Object.hasOwn(ALWAYS, name)) return ALWAYS[name] as string;
  if (name.startsWith('mkfs')) return 'formats a file system';
  switch (name) {
    case 'git': {
      if (gitSubcommand(args).config) dynamic(state, label, 'git -c can set a program git runs (core.pager, aliases, ...)');
      return gitReason(args);
    }
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return args.some((a) => PUBLISH_VERBS.has(a)) ? `${name} publishes or changes a published package` : null;
    case 'docker':
    case 'podman':
    case 'nerdctl':
    case 'kubectl':
    case 'oc':
      if (args.includes('drain')) return 'drains a node';
      return args.some((a) => CONTAINER_VERBS.has(a)) ? `${name} removes or stops resources` : null;
    case 'helm':
      return args.some((a) => a === 'uninstall' || a === 'delete' || a === 'rollback') ? 'helm removes or rolls back a release' : null;
    case 'terraform':
    case 'tofu':
    case 'pulumi':
      return args.some((a) => a === 'destroy' || a === 'apply' || a === 'up' || a === '-destroy') ? `${name} changes or destroys infrastructure` : null;
    case 'aws':
    case 'gcloud':
    case 'az':
    case 'gsutil':
      return args.some((a) => a === 'rm' || a === 'rb' || a === 'delete' || /^(delete|terminate|remove)-/.test(a)) ? `${name} deletes cloud resources` : null;
    case 'systemctl': {
      const verb = args.find((a) => !a.startsWith('-'));
      return verb !== undefined && !SYSTEMCTL_READ.test(verb) ? `systemctl ${verb} changes services` : null;
    }
    case 'service':
      return args.length >= 2 && args[1] !== 'status' ? 'changes a service' : null;
    case 'crontab':
      return args.includes('-l') && args.length === 1 ? null : 'changes scheduled jobs';
    case 'redis-cli':
      return args.some((a) => /^(flushall|flushdb|del|unlink|config|shutdown)$/i.test(a)) ? 'deletes or reconfigures Redis data' : null;
    case 'psql':
    case 'mysql':
    case 'mariadb':
    case 'sqlite3': {
      const { sql, source } = sqlFromClient(name, args, frame);
      if (sql === null) dynamic(state, label, `${name} runs SQL from ${source}, which is not analysed`);
      // psql `\!`, mysql `\!`/`system`, sqlite3 `.shell`/`.system` hand the rest of the line to a shell.
      if (sql && /(^|[\n;])\s*(\\!|\.shell\b|\.system\b|system\s)/i.test(sql)) dynamic(state, label, `${name} runs a shell command from its input`);
      return sql ? sqlReason(sql) : null;
    }
    default:
      return null;
  }
}

/**
 * Records why a command is destructive, if it is. Programs whose arguments decide it are
 * unclassifiable when one of those arguments is not static.
 */
export function checkDestructive(name: string, words: ResolvedWord[], frame: Frame, state: ScanState): void {
  const label = words.map((w) => w.source).join(' ');
  const args = words.slice(1);
  if (ARGUMENT_SENSITIVE.has(name) && args.some((w) => !w.static)) {
    dynamic(state, label, `an argument that decides what ${name} does is not static`);
  }
  const reason = reasonFor(
    name,
    args.map((w) => w.text),
    frame,
    state,
    label,
  );
  if (reason) destructive(state, label, reason);
}
