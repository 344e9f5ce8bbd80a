import { decisionCommand } from './approve-decide';

/** `looplane approve APPROVAL_ID [--comment TEXT]`. */
export const approveCommand = decisionCommand('approve');
