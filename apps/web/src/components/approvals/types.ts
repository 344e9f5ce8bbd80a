import type { RouterOutputs } from '@/lib/api-types';

/** One approval as the inbox shows it. */
export type ApprovalItem = RouterOutputs['approvals']['list']['items'][number];
export type ApprovalStatus = ApprovalItem['status'];
