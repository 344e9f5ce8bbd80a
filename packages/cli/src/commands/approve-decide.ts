import { unwrap } from '@looplane/client';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { openRemoteSession } from '../remote/session';

const ENVIRONMENT = `Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token with the approver role or higher (required)

Exit codes: 0 decided, 1 refused or failed (already decided, not found, four-eyes, server
unreachable), 2 wrong usage.`;

/** `looplane approve` / `looplane reject`: one decision on a pending approval. */
export function decisionCommand(decision: 'approve' | 'reject'): Command {
  const verb = decision === 'approve' ? 'Approve' : 'Reject';
  const usage = `Usage: looplane ${decision} APPROVAL_ID [--comment TEXT] [--json] [--team SLUG]

${verb}s a pending approval (a tool call the team's policy holds for a person). The run resumes:
${decision === 'approve' ? 'the call runs' : 'the model is told the call was rejected, with the comment as the reason'}.
Approval ids are on the Approvals page and in \`looplane tail\` output.

Options:
  --comment TEXT   why (recorded in the audit log${decision === 'reject' ? ', and shown to the model' : ''})
  --json           print { approvalId, status, decidedAt, runId } as one JSON line
  --team SLUG      the team (default: the token's team)

${ENVIRONMENT}`;
  return {
    name: decision,
    summary: `${verb} a pending approval`,
    usage,
    async run({ args, printer }) {
      const { values, positionals } = parseCommandArgs(
        args,
        { comment: { type: 'string' }, json: { type: 'boolean', default: false }, team: { type: 'string' } },
        true,
      );
      const [approvalId, ...extra] = positionals;
      if (!approvalId || extra.length > 0) throw new UsageError('give exactly one APPROVAL_ID');
      const comment = values.comment?.trim();
      if (values.comment !== undefined && !comment) throw new UsageError('--comment must not be empty');
      const session = await openRemoteSession(loadCliEnv(), values.team);
      try {
        const result = await unwrap(
          session.api.POST('/approvals/{approvalId}/decision', { params: { path: { approvalId } }, body: { decision, ...(comment ? { comment } : {}) } }),
        );
        if (values.json) printer.raw(JSON.stringify(result));
        else printer.info(`${result.status === 'approved' ? 'Approved' : 'Rejected'} ${result.approvalId}; run ${result.runId} resumes.`);
        return EXIT.ok;
      } catch (error) {
        printer.error(describeApiError(error, session.remote));
        return EXIT.failure;
      }
    },
  };
}
