import { SecretBox, sealedSecret, type Queryable } from '@looplane/db';
import { parseRepositoryUrl } from '@looplane/engine';
import { SeedFailure } from './fetch-repository';
import type { RepositoryCredential } from './remote-git';

/** A `token` secret opened with what a forge needs besides the token. */
export interface ForgeCredential {
  token: string;
  username: string;
  forge: 'github' | 'gitlab' | 'gitea' | null;
  apiUrl: string | null;
}

/** The basic-auth user a token goes with when its secret names none (GitHub's convention, accepted by GitLab and Gitea). */
const DEFAULT_TOKEN_USER = 'x-access-token';

/**
 * Opens the team secret a run's repository names (`secretRef`), for the worker's own git and forge
 * requests only: a `token` for http(s), an `ssh_key` for ssh. The value is never logged, put in an
 * event, or written where the sandbox can read it.
 */
export class RepositorySecrets {
  private readonly box: SecretBox | null;

  constructor(
    private readonly pool: Queryable,
    encryptionKey: string | undefined,
  ) {
    this.box = encryptionKey ? new SecretBox(encryptionKey) : null;
  }

  /** The credential for `url`; SeedFailure naming the problem (absent, wrong kind, cannot be opened). */
  async credential(teamId: string, name: string, url: string): Promise<RepositoryCredential> {
    const parsed = parseRepositoryUrl(url);
    const { kind, value, username } = await this.open(teamId, name);
    if (parsed.ok && parsed.scheme === 'ssh') {
      if (kind !== 'ssh_key') throw new SeedFailure(`the secret ${name} is a ${kind} secret; an ssh repository needs an ssh_key secret`);
      return { kind: 'ssh_key', privateKey: value };
    }
    if (kind !== 'token') throw new SeedFailure(`the secret ${name} is a ${kind} secret; an https repository needs a token secret`);
    return { kind: 'token', token: value, username: username ?? DEFAULT_TOKEN_USER };
  }

  /** A token secret with its forge settings, for opening pull requests. */
  async forge(teamId: string, name: string): Promise<ForgeCredential> {
    const { kind, value, username, forge, apiUrl } = await this.open(teamId, name);
    if (kind !== 'token') throw new SeedFailure(`the secret ${name} is a ${kind} secret; a forge needs a token secret`);
    return { token: value, username: username ?? DEFAULT_TOKEN_USER, forge, apiUrl };
  }

  private async open(teamId: string, name: string) {
    const sealed = await sealedSecret(this.pool, teamId, name);
    if (!sealed) throw new SeedFailure(`the team secret ${name} does not exist (Settings → Secrets)`);
    if (!this.box) throw new SeedFailure(`the team secret ${name} cannot be opened: this worker has no LOOPLANE_ENCRYPTION_KEY`);
    let value: string;
    try {
      value = this.box.open(sealed.ciphertext);
    } catch {
      throw new SeedFailure(`the team secret ${name} cannot be opened with this worker's LOOPLANE_ENCRYPTION_KEY`);
    }
    return { kind: sealed.kind, value, username: sealed.username, forge: sealed.forge, apiUrl: sealed.apiUrl };
  }
}
