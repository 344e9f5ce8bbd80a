import { z } from 'zod';
import { idSchema } from '../schemas';

const filterText = z.string().trim().min(1).max(200);

/** `audit.list`: newest first, filtered, keyset-paginated by seq (`cursor` = the last seq seen). */
export const listAuditInput = z
  .object({
    /** A user id or token id (who acted). */
    actorId: idSchema.optional(),
    actorType: z.enum(['user', 'token', 'system']).optional(),
    /** An exact action (`policy.saved`) or a prefix ending in a dot (`policy.`). */
    action: filterText.regex(/^[a-z0-9_.-]+$/i, 'must be an action such as policy.saved or a prefix such as policy.').optional(),
    targetType: filterText.optional(),
    targetId: filterText.optional(),
    from: z.date().optional(),
    to: z.date().optional(),
    cursor: z.int().positive().max(2_147_483_647).optional(),
    limit: z.int().min(1).max(200).default(50),
  })
  .refine((input) => !input.from || !input.to || input.from <= input.to, { message: 'from must not be after to', path: ['from'] });
export type ListAuditInput = z.infer<typeof listAuditInput>;
