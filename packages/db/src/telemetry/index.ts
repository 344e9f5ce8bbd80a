// Cluster-wide numbers read at scrape time (statements Prisma's query builder cannot express).
export { approvalDecisionTotals, type ApprovalDecisionTotals } from './approval-decisions.repository';
