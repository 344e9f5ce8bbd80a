import { z } from 'zod';
import { idSchema } from '../schemas';

/**
 * An uploaded archive's name, as shown and audited: one name, no directories. The bytes decide
 * its format; the name is only for people.
 */
export const uploadFilenameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters in a shown name is the point.
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters')
  .refine((name) => !/[/\\]/.test(name), 'must be a file name, without / or \\');

/**
 * `uploads.create`: the archive's bytes. Only a server-side caller can hand it bytes (the REST
 * route and the dashboard's upload route); a tRPC request over HTTP carries JSON and is refused.
 */
export const createUploadInput = z.object({
  filename: uploadFilenameSchema.optional(),
  data: z.custom<Uint8Array>((value) => value instanceof Uint8Array, {
    message: 'must be the archive’s bytes: send it to POST /api/v1/uploads or /api/teams/{teamId}/uploads',
  }),
});

export const getUploadInput = z.object({ uploadId: idSchema });
