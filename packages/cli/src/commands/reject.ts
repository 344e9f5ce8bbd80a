import { decisionCommand } from './approve-decide';

/** `looplane reject APPROVAL_ID [--comment TEXT]`. */
export const rejectCommand = decisionCommand('reject');
