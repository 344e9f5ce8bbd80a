import { z } from 'zod';
import { uploadFilenameSchema } from '../../routers/uploads.schema';
import { id, timestamp } from './common.schemas';

export const uploadIdParams = z.strictObject({ uploadId: id });

/** `POST /uploads?filename=…`: the name to show, when the body does not carry one. */
export const createUploadQuery = z.strictObject({
  filename: uploadFilenameSchema.optional().meta({ description: 'The archive’s name (else `Content-Disposition`’s, a form part’s, or `upload.<format>`)' }),
});

/** An uploaded archive: what it is and holds, and until when it waits for a run. */
export const upload = z
  .strictObject({
    id,
    filename: z.string(),
    format: z.enum(['tar', 'tar.gz', 'zip']).meta({ description: 'Told apart by the bytes, not the name' }),
    bytes: z.int().min(1).meta({ description: 'Size of the archive as uploaded' }),
    files: z.int().min(0).meta({ description: 'Entries it unpacks to: files, directories and links' }),
    unpackedBytes: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    createdAt: timestamp,
    expiresAt: timestamp.nullable().meta({ description: 'When it is deleted unless a run uses it first; null once a run used it (then it is kept)' }),
    usedAt: timestamp.nullable().meta({ description: 'When a run first used it' }),
  })
  .meta({ id: 'Upload' });
