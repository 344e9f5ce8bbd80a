import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './run-command';

export interface SshKeyPair {
  /** OpenSSH private key file contents (ends with a newline; write it with mode 0600). */
  privateKey: string;
  /** One `authorized_keys` line: `ssh-ed25519 AAAA… comment`. */
  publicKey: string;
}

/** A fresh ed25519 key pair without a passphrase, made by `ssh-keygen` in a temp dir. */
export async function generateSshKey(comment = 'looplane-test'): Promise<SshKeyPair> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-sshkey-'));
  try {
    const file = join(dir, 'id_ed25519');
    await runCommand('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file]);
    const [privateKey, publicKey] = await Promise.all([readFile(file, 'utf8'), readFile(`${file}.pub`, 'utf8')]);
    return { privateKey, publicKey: publicKey.trim() };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
