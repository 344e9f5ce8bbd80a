// Approvals: the worker opens pending rows (crediting who gave the instructions, for four-eyes) and reads
// a wait's decision; the dashboards' pending count; the API's bulk decisions.
export { instructionGivers, type InstructionGivers } from './instruction-givers';
export { approvalRunOwner, insertPendingApproval, type PendingApproval } from './approval-open.repository';
export { countPendingApprovals } from './pending-count.repository';
export { readApprovalDecision, type ApprovalDecisionRow } from './approval-decision.repository';
export { decidePendingApprovals } from './approval-bulk-decide.repository';
