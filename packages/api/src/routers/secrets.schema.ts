import { z } from 'zod';
import { MAX_PRIVATE_KEY_BYTES, readPrivateKey } from '../private-key-text';

/** What a policy's `egress.credentials[].secretRef` names: letters, digits, "_", "-" and ".". */
const secretNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must start with a letter or digit and use only letters, digits, "_", "-" and "."');

/**
 * How a secret's value is used: `header` an HTTP header value the egress proxy injects; `token`
 * a forge token (the https password for a clone or push, and the key to the forge's API);
 * `ssh_key` a private key for ssh remotes.
 */
const secretKindSchema = z.enum(['header', 'token', 'ssh_key']);
const forgeSchema = z.enum(['github', 'gitlab', 'gitea']);

/** The most a header or token value may hold. */
const MAX_LINE_VALUE = 8192;

/**
 * A forge's API base URL: https, or http to a server on this machine (a forge in development or a
 * test double). No credentials, query or fragment; a trailing slash is dropped.
 */
const apiUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an https URL such as https://api.github.com' }))
  .superRefine((value, ctx) => {
    // Refinements run after a failed check too: the URL check has already said what is wrong.
    if (!URL.canParse(value)) return;
    const url = new URL(value);
    if (url.protocol === 'http:' && url.hostname !== '127.0.0.1' && url.hostname !== 'localhost')
      ctx.addIssue({ code: 'custom', message: 'must be https (http only for 127.0.0.1 or localhost)' });
    if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
    if (url.search || url.hash) ctx.addIssue({ code: 'custom', message: 'must not have a query or fragment' });
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** The basic-auth user a token goes with: no ":" (it ends the user) and nothing a URL would need to escape. */
const usernameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@+-]*$/, 'must start with a letter or digit and use only letters, digits and . _ @ + -');

/**
 * `secrets.create`: a new secret, or (with `replace`) a new value, kind and settings for an
 * existing one. A header or token value becomes a header or a password, so it is one line without
 * control characters (a CR or LF would inject a header); an ssh key is a multi-line private key.
 * Only a token takes a user name, a forge and an API URL.
 */
export const createSecretInput = z
  .object({
    name: secretNameSchema,
    kind: secretKindSchema.default('header'),
    value: z.string().max(MAX_PRIVATE_KEY_BYTES, `must be at most ${MAX_PRIVATE_KEY_BYTES} characters`),
    username: usernameSchema.optional(),
    forge: forgeSchema.optional(),
    apiUrl: apiUrlSchema.optional(),
    /** Rotate: overwrite the value of an existing secret of that name instead of refusing. */
    replace: z.boolean().default(false),
  })
  .superRefine((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (input.kind === 'ssh_key') {
      const key = readPrivateKey(input.value);
      if (!key.ok) issue('value', `an ssh_key value ${key.reason}`);
    } else {
      if (input.value.length < 4) issue('value', 'must be at least 4 characters');
      // Past the largest key the field itself has said so.
      if (input.value.length > MAX_LINE_VALUE && input.value.length <= MAX_PRIVATE_KEY_BYTES) issue('value', `must be at most ${MAX_LINE_VALUE} characters`);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point (a CR or LF would inject a header).
      if (/[\u0000-\u001f\u007f]/.test(input.value)) issue('value', 'must not contain control characters such as newlines');
    }
    if (input.kind !== 'token') {
      const named = { username: 'a username', forge: 'a forge', apiUrl: 'an API URL' } as const;
      for (const field of ['username', 'forge', 'apiUrl'] as const)
        if (input[field] !== undefined)
          issue(field, `only a token secret takes ${named[field]}, not ${input.kind === 'header' ? 'a header' : 'an ssh_key'} secret`);
    } else if (input.apiUrl !== undefined && input.forge === undefined) {
      issue('apiUrl', 'an API URL needs a forge (github, gitlab or gitea) to say how to speak to it');
    }
  })
  // An ssh key is stored as ssh reads it: `\n` line breaks and a final newline.
  .transform((input) => {
    if (input.kind !== 'ssh_key') return input;
    const key = readPrivateKey(input.value);
    return key.ok ? { ...input, value: key.normalized } : input;
  });
export type CreateSecretInput = z.output<typeof createSecretInput>;

/** `secrets.delete`. */
export const secretRefInput = z.object({ name: secretNameSchema });
