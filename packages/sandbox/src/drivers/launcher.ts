/**
 * How the launcher enters its cgroup: 'attach' writes "0" to the given `tasks` files itself (they
 * belong to its uid), 'gate' waits for the worker's line on fd 3, 'none' (no cgroup) starts at once.
 */
export type LauncherCgroup = { kind: 'attach'; files: string[] } | { kind: 'gate' } | { kind: 'none' };

/** Limits applied with setrlimit by the launcher, before bwrap starts (inherited by every process). */
export interface LauncherRlimits {
  /** RLIMIT_FSIZE: no single file can outgrow the workspace limit (absent: gVisor holds it inside, the Sentry's memory file must grow). */
  fileBytes?: number;
  /** RLIMIT_NPROC: only meaningful when the uid is dedicated to this sandbox. */
  processes?: number;
  /** RLIMIT_AS: the memory fallback without a memory cgroup (address space, per process). */
  addressSpaceBytes?: number;
}

/**
 * The shell script that starts bwrap. It runs as the sandbox uid and first enters its cgroup before
 * anything forks: on cgroup v1 it moves itself by writing "0" to the execution's `tasks` files
 * (given to its uid by the worker); on v2 it waits on fd 3 for one line from the worker, which
 * places it meanwhile; without a cgroup it does neither. A failed move stops it before bwrap.
 * Then it closes descriptors the worker inherited without close-on-exec, sets rlimits and execs
 * bwrap ("$@"). dash cannot name descriptors above 9, so bash is used only when one must be closed.
 */
export function launcherScript(closeFds: number[], limits: LauncherRlimits, cgroup: LauncherCgroup = { kind: 'gate' }): { shell: string; script: string } {
  const bash = closeFds.some((fd) => fd > 9);
  // The shells disagree on units and letters: bash counts file size in KiB and processes with -u,
  // dash counts file size in 512-byte blocks and processes with -p.
  const fileUnit = bash ? 1024 : 512;
  const lines: string[] = [];
  if (cgroup.kind === 'gate') lines.push('read -r go <&3 || exit 125');
  // echo is a builtin: the shell itself is the thread that moves, and a failed move stops here.
  if (cgroup.kind === 'attach' && cgroup.files.length > 0) lines.push(`${cgroup.files.map((file) => `echo 0 >${shellQuote(file)}`).join(' && ')} || exit 125`);
  if (closeFds.length > 0) lines.push(`exec ${closeFds.map((fd) => `${fd}>&-`).join(' ')}`);
  lines.push('ulimit -c 0');
  if (limits.fileBytes) lines.push(`ulimit -f ${Math.ceil(limits.fileBytes / fileUnit)}`);
  if (limits.processes) lines.push(`ulimit ${bash ? '-u' : '-p'} ${limits.processes}`);
  if (limits.addressSpaceBytes) lines.push(`ulimit -v ${Math.ceil(limits.addressSpaceBytes / 1024)}`);
  lines.push('exec "$@"');
  return { shell: bash ? '/bin/bash' : '/bin/sh', script: lines.join('\n') };
}

/** A single-quoted shell word (cgroup paths come from /proc/self/cgroup: any byte but NUL and newline). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
