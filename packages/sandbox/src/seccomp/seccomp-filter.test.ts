import { describe, expect, it } from 'vitest';
import { seccompProgram } from './seccomp-filter';

/** Runs a classic-BPF seccomp program on (arch, nr), as the kernel would (only the opcodes the filter uses). */
function run(program: Buffer, arch: number, nr: number): number {
  const data = [nr, arch];
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      acc = data[k / 4] as number;
      pc += 1;
    } else if (code === 0x15) pc += 1 + (acc === k ? jt : jf);
    else if (code === 0x35) pc += 1 + (acc >= k ? jt : jf);
    else if (code === 0x06) return k;
    else throw new Error(`unexpected opcode ${code}`);
  }
  throw new Error('fell off the program');
}

const X86_64 = 0xc000003e;
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;

describe('seccomp filter', () => {
  const program = seccompProgram('x64') as Buffer;

  it('refuses the listed kernel interfaces and lets everything else through', () => {
    expect(run(program, X86_64, 321)).toBe(EPERM); // bpf
    expect(run(program, X86_64, 323)).toBe(EPERM); // userfaultfd
    expect(run(program, X86_64, 272)).toBe(EPERM); // unshare
    expect(run(program, X86_64, 442)).toBe(EPERM); // mount_setattr (the last EPERM entry)
    expect(run(program, X86_64, 134)).toBe(EPERM); // uselib (the first)
    expect(run(program, X86_64, 425)).toBe(ENOSYS); // io_uring_setup
    expect(run(program, X86_64, 427)).toBe(ENOSYS); // io_uring_register
    for (const nr of [0, 1, 2, 39, 56, 57, 59, 101, 231, 435]) expect(run(program, X86_64, nr), String(nr)).toBe(ALLOW);
  });

  it('refuses other ABIs: i386 through int 0x80 and x32', () => {
    expect(run(program, 0x40000003, 1)).toBe(ENOSYS);
    expect(run(program, X86_64, 0x40000000 + 1)).toBe(ENOSYS);
  });

  it('is only built for CPUs whose syscall table it carries', () => {
    expect(seccompProgram('arm64')).toBeNull();
  });
});
