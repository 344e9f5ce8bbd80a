import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '@looplane/shared';

const VERSION = 'v1';

/**
 * AES-256-GCM for secrets at rest (model endpoint keys). The output is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; the key is 32 bytes from the environment.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    const key = Buffer.from(keyBase64, 'base64');
    if (key.length !== 32) {
      throw new AppError('INTERNAL', 'LOOPLANE_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
    }
    this.key = key;
  }

  /** Encrypts a UTF-8 secret. */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** Decrypts what {@link seal} produced; throws when it was tampered with or sealed under another key. */
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) {
      throw new AppError('INTERNAL', 'Sealed secret has an unknown format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
