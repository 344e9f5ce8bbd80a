import { z } from 'zod';
import { weakPasswordReason } from '@looplane/shared';

/** Ids are cuids; bound their size so junk never reaches the database. */
export const idSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an id');
export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const nameSchema = z.string().trim().min(1).max(100);
export const slugSchema = z
  .string()
  .min(2)
  .max(40)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'must be lowercase letters, digits and dashes');
/** An account password: 8 to 200 characters, not a common one (`weakPasswordReason` in @looplane/shared). */
export const passwordSchema = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(200)
  .superRefine((password, ctx) => {
    const reason = weakPasswordReason(password);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  });
