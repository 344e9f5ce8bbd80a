import { defineRoute, type RestRoute } from '../rest-route';
import { auditExport } from '../schemas/admin.schemas';

export const auditRoutes: RestRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/audit/export',
    operationId: 'exportAudit',
    summary: 'Export the audit log',
    description: 'The team’s whole hash-chained audit log as JSON Lines, to keep or to check offline with `looplane audit verify`.',
    tag: 'audit',
    procedure: 'audit.export',
    response: auditExport,
    responseDescription: 'The export',
    example: {},
    handle: ({ caller, teamId }) => caller.audit.export({ teamId }),
  }),
];
