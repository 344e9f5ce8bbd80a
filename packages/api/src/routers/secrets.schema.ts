import { z } from 'zod';

/** What a policy's `egress.credentials[].secretRef` names: letters, digits, "_", "-" and ".". */
const secretNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must start with a letter or digit and use only letters, digits, "_", "-" and "."');

/**
 * A secret becomes an HTTP header value in the egress proxy: no control characters (a CR or LF
 * would inject a header), bounded in size.
 */
const secretValueSchema = z
  .string()
  .min(4, 'must be at least 4 characters')
  .max(8192)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point (a CR or LF would inject a header).
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters such as newlines');

/** `secrets.create`: a new secret, or (with `replace`) a new value for an existing one. */
export const createSecretInput = z.object({
  name: secretNameSchema,
  value: secretValueSchema,
  /** Rotate: overwrite the value of an existing secret of that name instead of refusing. */
  replace: z.boolean().default(false),
});
export type CreateSecretInput = z.infer<typeof createSecretInput>;

/** `secrets.delete`. */
export const secretRefInput = z.object({ name: secretNameSchema });
