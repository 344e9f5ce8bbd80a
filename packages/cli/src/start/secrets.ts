import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const storedSchema = z.object({
  nextauthSecret: z.string().optional(),
  encryptionKey: z.string().optional(),
  postgresPassword: z.string().optional(),
  redisPassword: z.string().optional(),
});

type SecretName = keyof z.infer<typeof storedSchema>;

const generators: Record<SecretName, () => string> = {
  nextauthSecret: () => randomBytes(32).toString('base64url'),
  encryptionKey: () => randomBytes(32).toString('base64'),
  postgresPassword: () => randomBytes(24).toString('base64url'),
  redisPassword: () => randomBytes(24).toString('base64url'),
};

/**
 * Secrets generated on first start and reused on every later one, kept in
 * `LOOPLANE_HOME/secrets.json` with mode 0600. Losing the encryption key makes stored endpoint
 * keys unreadable, so a value, once written, is never regenerated.
 */
export class SecretStore {
  private constructor(
    private readonly file: string,
    private readonly values: z.infer<typeof storedSchema>,
  ) {}

  /** Opens (or prepares to create) the store in `home`. */
  static async open(home: string): Promise<SecretStore> {
    const file = join(home, 'secrets.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return new SecretStore(file, {});
    }
    const parsed = storedSchema.safeParse(safeJson(text));
    if (!parsed.success) throw new Error(`${file} is not valid JSON written by looplane; move it away to start over`);
    // Tighten permissions a user (or a copy) may have loosened.
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
    return new SecretStore(file, parsed.data);
  }

  /** The stored secret `name`, generated and persisted first when missing. */
  async get(name: SecretName): Promise<string> {
    const existing = this.values[name];
    if (existing !== undefined) return existing;
    const value = generators[name]();
    this.values[name] = value;
    await this.save();
    return value;
  }

  private async save(): Promise<void> {
    await mkdir(join(this.file, '..'), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(this.values, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, this.file);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
