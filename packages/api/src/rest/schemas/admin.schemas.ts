import { z } from 'zod';
import { addMcpServerInput } from '../../routers/mcp.schema';
import { nameSchema } from '../../schemas';
import { id, roleEnum, timestamp, userRef } from './common.schemas';

// ---- me ----

export const me = z
  .strictObject({
    user: userRef.meta({ description: 'The person the token acts for (its creator)' }),
    token: z.strictObject({ id, role: roleEnum.meta({ description: 'The role the token was made with' }) }),
    team: z.strictObject({
      id,
      slug: z.string(),
      name: z.string(),
      role: roleEnum.meta({ description: 'What the token may do: its role, capped by its creator’s role in the team' }),
    }),
  })
  .meta({ id: 'Me' });

// ---- audit ----

export const auditExport = z
  .strictObject({
    filename: z.string().meta({ description: 'A file name to save it as' }),
    text: z.string().meta({ description: 'JSON Lines: a header line, then one line per audit row, oldest first (`looplane audit verify` checks it)' }),
    rows: z.int(),
    headHash: z.string().meta({ description: 'The hash of the last row: the chain’s head' }),
  })
  .meta({ id: 'AuditExport' });

// ---- tokens ----

export const tokenIdParams = z.strictObject({ tokenId: id });

export const createTokenBody = z
  .strictObject({
    name: nameSchema,
    role: roleEnum.meta({ description: 'At most the caller’s own role' }),
    expiresInDays: z.int().min(1).max(3650).optional().meta({ description: 'Omitted: never (a token made with a token expires no later than it)' }),
  })
  .meta({ id: 'CreateTokenRequest' });

export const tokenCreated = z
  .strictObject({
    id,
    token: z.string().meta({ description: 'The secret, shown this once: send it as `Authorization: Bearer …`' }),
    prefix: z.string(),
    role: roleEnum,
    expiresAt: timestamp.nullable(),
  })
  .meta({ id: 'TokenCreated' });

export const tokenList = z
  .array(
    z
      .strictObject({
        id,
        name: z.string(),
        prefix: z.string(),
        role: roleEnum,
        createdAt: timestamp,
        lastUsedAt: timestamp.nullable(),
        expiresAt: timestamp.nullable(),
        revokedAt: timestamp.nullable(),
        createdBy: z.strictObject({ id, email: z.string() }),
      })
      .meta({ id: 'Token' }),
  )
  .meta({ id: 'TokenList', description: 'Admins see every token of the team; others the ones they made, of their role or below' });

export const tokenRevoked = z.strictObject({ id, revokedAt: timestamp }).meta({ id: 'TokenRevoked' });

// ---- MCP servers ----

export const mcpServerIdParams = z.strictObject({ serverId: id });

export const addMcpServerBody = addMcpServerInput.strict().meta({ id: 'AddMcpServerRequest' });

export const mcpServer = z
  .strictObject({
    id,
    name: z.string(),
    transport: z.enum(['stdio', 'http']),
    command: z.string().nullable(),
    args: z.array(z.string()),
    url: z.string().nullable(),
    tools: z.array(z.string()).meta({ description: 'Tool names a worker listed (`mcp:<name>:<tool>` in runs); empty until listed' }),
    toolsCheckedAt: timestamp.nullable().meta({ description: 'When a worker listed them; null: waiting for a worker' }),
    toolsError: z.string().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'McpServer' });

export const mcpServerList = z.array(mcpServer).meta({ id: 'McpServerList' });

export const mcpServerRemoved = z.strictObject({ id, removed: z.literal(true) }).meta({ id: 'McpServerRemoved' });
