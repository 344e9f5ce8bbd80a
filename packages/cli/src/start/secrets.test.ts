import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretStore } from './secrets';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'looplane-secrets-'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('SecretStore', () => {
  it('generates each secret once, persists it with mode 0600 and returns it on later opens', async () => {
    const first = await SecretStore.open(home);
    const secret = await first.get('nextauthSecret');
    const key = await first.get('encryptionKey');
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect((await stat(join(home, 'secrets.json'))).mode & 0o777).toBe(0o600);

    const again = await SecretStore.open(home);
    expect(await again.get('nextauthSecret')).toBe(secret);
    expect(await again.get('encryptionKey')).toBe(key);
  });

  it('tightens a secrets file that became readable by others', async () => {
    await writeFile(join(home, 'secrets.json'), JSON.stringify({ postgresPassword: 'pw' }));
    await chmod(join(home, 'secrets.json'), 0o644);
    const store = await SecretStore.open(home);
    expect(await store.get('postgresPassword')).toBe('pw');
    expect((await stat(join(home, 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('refuses a file it did not write rather than overwriting secrets', async () => {
    await writeFile(join(home, 'secrets.json'), 'not json');
    await expect(SecretStore.open(home)).rejects.toThrow(/secrets\.json is not valid JSON/);
    expect(await readFile(join(home, 'secrets.json'), 'utf8')).toBe('not json');
  });
});
