import { z } from 'zod';
import { idSchema } from '../schemas';

const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

const commentSchema = z.string().trim().max(2000);
/** Edited arguments: a JSON object, bounded (they are re-checked against the tool's own schema). */
const editedArgsSchema = z.record(z.string(), z.json()).refine((args) => JSON.stringify(args).length <= 100_000, 'must be at most 100,000 characters of JSON');

export const decideInput = z
  .object({
    approvalId: idSchema,
    decision: z.enum(['approve', 'reject']),
    /** Why; a rejection's comment is what the model is told. */
    comment: commentSchema.optional(),
    /** Arguments to run instead of the model's (approve only); the edit is recorded. */
    editedArgs: editedArgsSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.editedArgs && input.decision !== 'approve')
      ctx.addIssue({ code: 'custom', path: ['editedArgs'], message: 'only an approval can edit the arguments' });
  });
export type DecideInput = z.infer<typeof decideInput>;

export const decideManyInput = z.object({
  approvalIds: z.array(idSchema).min(1, 'select at least one approval').max(100, 'at most 100 approvals at once'),
  decision: z.enum(['approve', 'reject']),
  comment: commentSchema.optional(),
});
export type DecideManyInput = z.infer<typeof decideManyInput>;

export const listApprovalsInput = z.object({
  /** Omitted: every status, pending first. */
  status: z.enum(APPROVAL_STATUSES).optional(),
  runId: idSchema.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.int().min(1).max(100).default(50),
});
export type ListApprovalsInput = z.infer<typeof listApprovalsInput>;

export const approvalRefInput = z.object({ approvalId: idSchema });
