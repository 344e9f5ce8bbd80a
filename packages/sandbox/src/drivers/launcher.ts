/** Limits applied with setrlimit by the launcher, before bwrap starts (inherited by every process). */
export interface LauncherRlimits {
  /** RLIMIT_FSIZE: no single file can outgrow the workspace limit. */
  fileBytes: number;
  /** RLIMIT_NPROC: only meaningful when the uid is dedicated to this sandbox. */
  processes?: number;
  /** RLIMIT_AS: the memory fallback without a memory cgroup (address space, per process). */
  addressSpaceBytes?: number;
}

/**
 * The shell script that starts bwrap. It runs as the sandbox uid and waits on fd 3 for one line
 * from the worker, so the worker can place it in its cgroup before anything forks; then it
 * closes descriptors the worker inherited without close-on-exec, sets rlimits and execs bwrap
 * ("$@"). dash cannot name descriptors above 9, so bash is used only when one must be closed.
 */
export function launcherScript(closeFds: number[], limits: LauncherRlimits): { shell: string; script: string } {
  const bash = closeFds.some((fd) => fd > 9);
  // The shells disagree on units and letters: bash counts file size in KiB and processes with -u,
  // dash counts file size in 512-byte blocks and processes with -p.
  const fileUnit = bash ? 1024 : 512;
  const lines = ['read -r go <&3 || exit 125'];
  if (closeFds.length > 0) lines.push(`exec ${closeFds.map((fd) => `${fd}>&-`).join(' ')}`);
  lines.push('ulimit -c 0');
  lines.push(`ulimit -f ${Math.ceil(limits.fileBytes / fileUnit)}`);
  if (limits.processes) lines.push(`ulimit ${bash ? '-u' : '-p'} ${limits.processes}`);
  if (limits.addressSpaceBytes) lines.push(`ulimit -v ${Math.ceil(limits.addressSpaceBytes / 1024)}`);
  lines.push('exec "$@"');
  return { shell: bash ? '/bin/bash' : '/bin/sh', script: lines.join('\n') };
}
