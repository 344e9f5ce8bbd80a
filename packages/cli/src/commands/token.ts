import { unwrap } from '@looplane/client';
import { ROLES, type Role } from '@looplane/shared';
import { parseCommandArgs } from '../args';
import { EXIT, UsageError, type Command } from '../command';
import { loadCliEnv } from '../env';
import { describeApiError } from '../remote/client';
import { openRemoteSession } from '../remote/session';

const usage = `Usage: looplane token create --name NAME --role ROLE [--expires-days N] [--json] [--team SLUG]
       looplane token list [--json] [--team SLUG]
       looplane token revoke TOKEN_ID [--json] [--team SLUG]

Manages the team's API tokens (for scripts, CI and MCP clients). create prints the secret once:
only its hash is stored. A token's role is capped by its creator's role; list shows your own
tokens (every token, for admins); revoke takes effect at the next request.

Options:
  --name NAME         a label for the token (create)
  --role ROLE         viewer, operator, approver or admin (create)
  --expires-days N    expire after N days (create; default: never)
  --json              print the result as JSON (create/revoke: one object; list: an array)
  --team SLUG         the team (default: the token's team)

Environment:
  LOOPLANE_URL    the server (default http://localhost:3000)
  LOOPLANE_TOKEN  a team API token with the operator role or higher (list: viewer)

Exit codes: 0 done, 1 refused or failed, 2 wrong usage.`;

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
/** The day of an ISO timestamp of the API (UTC), or `-`. */
const day = (date: string | null) => (date ? date.slice(0, 10) : '-');

/** `looplane token create/list/revoke`. */
export const tokenCommand: Command = {
  name: 'token',
  summary: 'Create, list or revoke API tokens (token create|list|revoke)',
  usage,
  async run({ args, printer }) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        name: { type: 'string' },
        role: { type: 'string' },
        'expires-days': { type: 'string' },
        json: { type: 'boolean', default: false },
        team: { type: 'string' },
      },
      true,
    );
    const [sub, ...rest] = positionals;
    if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') {
      throw new UsageError(sub ? `unknown token subcommand "${sub}" (create, list or revoke)` : 'give a subcommand: create, list or revoke');
    }
    let create: { name: string; role: Role; expiresInDays?: number } | null = null;
    if (sub === 'create') {
      if (rest.length > 0) throw new UsageError('token create takes no positional arguments');
      const name = values.name?.trim();
      if (!name) throw new UsageError('--name NAME is required');
      if (!values.role || !isRole(values.role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const days = values['expires-days'];
      if (days !== undefined && !/^\d+$/.test(days)) throw new UsageError('--expires-days must be a whole number');
      create = { name, role: values.role, ...(days !== undefined ? { expiresInDays: Number(days) } : {}) };
    } else if (sub === 'list' && rest.length > 0) {
      throw new UsageError('token list takes no positional arguments');
    } else if (sub === 'revoke' && rest.length !== 1) {
      throw new UsageError('give exactly one TOKEN_ID');
    }

    const session = await openRemoteSession(loadCliEnv(), values.team);
    try {
      if (create) {
        const token = await unwrap(session.api.POST('/tokens', { body: create }));
        if (values.json) printer.raw(JSON.stringify(token));
        else {
          printer.info(
            `Created token ${token.id} (${token.role}${token.expiresAt ? `, expires ${day(token.expiresAt)}` : ''}). Store it now; it is not shown again:`,
          );
          printer.info(token.token);
        }
      } else if (sub === 'list') {
        const tokens = await unwrap(session.api.GET('/tokens'));
        if (values.json) printer.raw(JSON.stringify(tokens));
        else if (tokens.length === 0) printer.info('No tokens.');
        else {
          for (const t of tokens) {
            const state = t.revokedAt ? 'revoked' : t.expiresAt && Date.parse(t.expiresAt) <= Date.now() ? 'expired' : 'active';
            printer.info(`${t.id}  ${t.prefix}…  ${t.role.padEnd(8)}  ${state.padEnd(7)}  last used ${day(t.lastUsedAt)}  ${t.name}`);
          }
        }
      } else {
        const revoked = await unwrap(session.api.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: rest[0]! } } }));
        if (values.json) printer.raw(JSON.stringify(revoked));
        else printer.info(`Revoked token ${revoked.id}.`);
      }
      return EXIT.ok;
    } catch (error) {
      printer.error(describeApiError(error, session.remote));
      return EXIT.failure;
    }
  },
};
