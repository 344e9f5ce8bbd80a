import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpioArchive } from './cpio-archive';
import { dynamicallyLinked, moduleLoadOrder } from './microvm-image';
import { microvmCallScript } from './microvm-script';

describe('the microVM guest image', () => {
  it('loads modules dependencies first, each once, and names a missing one with what needed it', () => {
    const dep = [
      'kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/netfs/netfs.ko',
      'kernel/net/9p/9pnet.ko:',
      'kernel/fs/netfs/netfs.ko:',
      'kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko kernel/drivers/virtio/virtio.ko',
      'kernel/drivers/virtio/virtio.ko:',
      'kernel/drivers/net/virtio_net.ko: kernel/drivers/net/net_failover.ko',
    ].join('\n');
    expect(moduleLoadOrder(dep, ['9pnet_virtio', '9p']).map((m) => m.name)).toEqual(['9pnet', 'virtio', '9pnet_virtio', 'netfs', '9p']);
    expect(() => moduleLoadOrder(dep, ['virtio_net'])).toThrow('the kernel has no module net_failover (needed by the microVM for virtio_net)');
  });

  it('tells a static executable from one that needs a loader', () => {
    expect(dynamicallyLinked(readFileSync('/bin/sh'))).toBe(true);
    expect(dynamicallyLinked(Buffer.from('#!/bin/sh\n'))).toBe(false);
  });

  it('writes a newc archive that cpio unpacks with modes, bytes and symlinks intact', () => {
    const dir = mkdtempSync(join(tmpdir(), 'looplane-cpio-'));
    const archive = join(dir, 'a.cpio');
    writeFileSync(
      archive,
      cpioArchive([
        { kind: 'dir', path: 'looplane', mode: 0o700 },
        { kind: 'file', path: 'looplane/init', mode: 0o755, data: Buffer.from('odd length!') },
        { kind: 'symlink', path: 'bin', target: 'usr/bin' },
      ]),
    );
    execFileSync('cpio', ['-idm', '--quiet', '-F', archive], { cwd: dir });
    expect(statSync(join(dir, 'looplane')).mode & 0o7777).toBe(0o700);
    expect(readFileSync(join(dir, 'looplane/init'), 'utf8')).toBe('odd length!');
    expect(statSync(join(dir, 'looplane/init')).mode & 0o7777).toBe(0o755);
    expect(readlinkSync(join(dir, 'bin'))).toBe('usr/bin');
    expect(() => cpioArchive([{ kind: 'dir', path: '../x', mode: 0o755 }])).toThrow('relative');
  });

  it("quotes every word of a call's script, so no argument or value is read as shell", () => {
    const script = microvmCallScript(["it's", '$(id)', 'a b'], { A: "x'; echo no; '" }, '/');
    expect(script).toContain("cd -- '/' || exit 1");
    // The script's exec line, run with printf instead: every word arrives exactly as given.
    const out = execFileSync('/bin/sh', ['-c', script.replace('exec 9<&-\n', '').replace(/^exec /m, 'printf "[%s]" "$A" ')], { env: {} }).toString();
    expect(out).toBe("[x'; echo no; '][it's][$(id)][a b]");
  });
});
