import { z } from 'zod';
import { breakerTripSchema, heldEffectSchema } from '@looplane/engine';
import { decideInput, listApprovalsInput } from '../../routers/approvals.schema';
import { id, intQuery, roleEnum, timestamp, userRef } from './common.schemas';
import { runStatus } from './runs.schemas';

const approvalStatus = z.enum(['pending', 'approved', 'rejected', 'expired', 'cancelled']).meta({ id: 'ApprovalStatus' });

export const approvalIdParams = z.strictObject({ approvalId: id });

export const listApprovalsQuery = z.strictObject({
  status: listApprovalsInput.shape.status.meta({ description: 'Omitted: every status, pending first' }),
  runId: listApprovalsInput.shape.runId,
  cursor: listApprovalsInput.shape.cursor.meta({ description: '`nextCursor` of the previous page' }),
  limit: intQuery(1, 100).optional().meta({ description: 'Approvals per page (default 50)' }),
});

const { decision, comment, editedArgs } = decideInput.shape;
export const decideBody = z
  .strictObject({
    decision,
    comment: comment.meta({ description: 'Why; a rejection’s comment is what the model is told' }),
    editedArgs: editedArgs.meta({ description: 'Arguments to run instead of the model’s (approve only)' }),
  })
  .superRefine((body, ctx) => {
    if (body.editedArgs && body.decision !== 'approve')
      ctx.addIssue({ code: 'custom', path: ['editedArgs'], message: 'only an approval can edit the arguments' });
  })
  .meta({ id: 'DecideApprovalRequest' });

const jsonObject = z.record(z.string(), z.unknown());

export const approval = z
  .strictObject({
    id,
    status: approvalStatus,
    kind: z.enum(['tool', 'budget', 'edge', 'effect', 'breaker']),
    runId: id,
    sessionId: id,
    requestSeq: z.int(),
    toolCallId: z.string().nullable(),
    tool: z.string().nullable(),
    args: jsonObject,
    editedArgs: jsonObject.nullable(),
    held: heldEffectSchema.nullable().meta({ description: 'kind effect: what the call changed (held until decided)' }),
    risk: z.string(),
    policyRuleId: z.string().nullable(),
    policyVersionId: z.string().nullable(),
    graphEdgeId: z.string().nullable(),
    requiredRole: roleEnum,
    fourEyes: z.boolean(),
    requestedById: id.nullable(),
    instructedByIds: z.array(id),
    decidedById: id.nullable(),
    decidedAt: timestamp.nullable(),
    comment: z.string().nullable(),
    expiresAt: timestamp.nullable(),
    expiryOutcome: z.string(),
    escalateAt: timestamp.nullable(),
    escalateToRole: roleEnum.nullable(),
    createdAt: timestamp,
    reason: z.string().nullable(),
    breaker: breakerTripSchema.nullable().meta({ description: 'kind breaker: the breaker that paused the session, what it measured and its limit' }),
    run: z.strictObject({ id, goal: z.string(), status: runStatus }),
    agent: z.strictObject({ id, name: z.string() }).nullable(),
    requestedBy: userRef.nullable(),
    decidedBy: userRef.nullable(),
    canDecide: z.boolean().meta({ description: 'Whether this token may decide it now' }),
    blocker: z.string().nullable().meta({ description: 'Why it may not, when it may not' }),
  })
  .meta({ id: 'Approval' });

export const approvalPage = z.strictObject({ items: z.array(approval), nextCursor: z.string().nullable() }).meta({ id: 'ApprovalPage' });

export const approvalDecided = z
  .strictObject({ approvalId: id, status: z.enum(['approved', 'rejected']), decidedAt: timestamp, runId: id })
  .meta({ id: 'ApprovalDecided' });
