/**
 * A seccomp filter for bwrap (`--seccomp FD` takes a compiled classic-BPF program). Namespaces
 * and dropped capabilities already stop these calls from reaching anything of the host; the
 * filter removes kernel attack surface a sandboxed command never needs (io_uring, userfaultfd,
 * bpf, perf, keyrings, module and mount APIs), the way container runtimes' default profiles do.
 * ptrace stays allowed: debugging inside the sandbox's own PID namespace is legitimate.
 */

// x86_64 syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl).
const EPERM_SYSCALLS: Record<string, number> = {
  uselib: 134,
  personality: 135,
  _sysctl: 156,
  adjtimex: 159,
  acct: 163,
  settimeofday: 164,
  mount: 165,
  umount2: 166,
  swapon: 167,
  swapoff: 168,
  reboot: 169,
  iopl: 172,
  ioperm: 173,
  init_module: 175,
  delete_module: 176,
  quotactl: 179,
  pivot_root: 155,
  vhangup: 153,
  syslog: 103,
  lookup_dcookie: 212,
  clock_settime: 227,
  kexec_load: 246,
  add_key: 248,
  request_key: 249,
  keyctl: 250,
  unshare: 272,
  perf_event_open: 298,
  name_to_handle_at: 303,
  open_by_handle_at: 304,
  clock_adjtime: 305,
  setns: 308,
  finit_module: 313,
  kexec_file_load: 320,
  bpf: 321,
  userfaultfd: 323,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442,
};
// ENOSYS, not EPERM: libraries then fall back (liburing users to epoll) instead of failing.
const ENOSYS_SYSCALLS: Record<string, number> = { io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427 };

const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_SYSCALL_BIT = 0x40000000;
const EPERM = 1;
const ENOSYS = 38;

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

type Instruction = [code: number, jt: number, jf: number, k: number];

/**
 * The compiled program (struct sock_filter[], little-endian), or null on a CPU whose syscall
 * table this file does not carry (the driver then reports it runs without the filter).
 */
export function seccompProgram(arch: string = process.arch): Buffer | null {
  if (arch !== 'x64') return null;
  const eperm = Object.values(EPERM_SYSCALLS);
  const enosys = Object.values(ENOSYS_SYSCALLS);
  // Layout: arch check (0-2), load nr (3), x32 check (4), one compare per syscall, then ALLOW, ERRNO(EPERM), ERRNO(ENOSYS).
  const compares = eperm.length + enosys.length;
  const allowAt = 5 + compares;
  const epermAt = allowAt + 1;
  const enosysAt = allowAt + 2;
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, 4], // seccomp_data.arch
    [JEQ_K, 1, 0, AUDIT_ARCH_X86_64],
    [RET_K, 0, 0, RET_ERRNO | ENOSYS], // other ABIs (i386 via int 0x80) get nothing
    [LD_W_ABS, 0, 0, 0], // seccomp_data.nr
  ];
  program.push([JGE_K, enosysAt - 5, 0, X32_SYSCALL_BIT]);
  for (const nr of eperm) program.push([JEQ_K, epermAt - (program.length + 1), 0, nr]);
  for (const nr of enosys) program.push([JEQ_K, enosysAt - (program.length + 1), 0, nr]);
  program.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ERRNO | EPERM], [RET_K, 0, 0, RET_ERRNO | ENOSYS]);
  const buffer = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    if (jt > 255) throw new Error('seccomp program too long for a direct jump');
    buffer.writeUInt16LE(code, i * 8);
    buffer.writeUInt8(jt, i * 8 + 2);
    buffer.writeUInt8(jf, i * 8 + 3);
    buffer.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buffer;
}

/**
 * The same filter as an OCI `linux.seccomp` section, by syscall name: gVisor enforces it in its own
 * kernel (runsc `--oci-seccomp`), so a command sees the same refusals under gVisor as under bwrap.
 */
export function ociSeccomp(): Record<string, unknown> {
  return {
    defaultAction: 'SCMP_ACT_ALLOW',
    architectures: ['SCMP_ARCH_X86_64'],
    syscalls: [
      { names: Object.keys(EPERM_SYSCALLS).filter((name) => !name.startsWith('_')), action: 'SCMP_ACT_ERRNO', errnoRet: EPERM },
      { names: Object.keys(ENOSYS_SYSCALLS), action: 'SCMP_ACT_ERRNO', errnoRet: ENOSYS },
    ],
  };
}
