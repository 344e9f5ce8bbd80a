import type { ScriptTurn, ToolSpec } from '@looplane/engine';
import type { APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { stack, unique } from './stack';
import { stackDatabaseUrl } from './stack-database';
import { trpcMutation, trpcQuery } from './trpc-api';

/** A catalogue entry of the seeded demo agents (the sandbox's built-in tools), by name. */
export async function seededToolSpecs(request: APIRequestContext, teamId: string, names: readonly string[]): Promise<ToolSpec[]> {
  const agents = await trpcQuery<Array<{ name: string; tools: ToolSpec[] }>>(request, 'agents.list', stack.bootstrapToken, { teamId });
  const specs = names.map((name) => agents.flatMap((agent) => agent.tools).find((tool) => tool.name === name));
  const missing = names.filter((_, i) => !specs[i]);
  if (missing.length > 0) throw new Error(`no seeded agent lists the tools ${missing.join(', ')}`);
  return specs as ToolSpec[];
}

/**
 * An agent on a faux endpoint of its own that plays `script`, made through the API like any
 * admin's; only the script goes straight into the endpoint's config (`ModelEndpoint.config`), which
 * no API sets. Unique names: specs share one database.
 */
export async function scriptedAgent(
  request: APIRequestContext,
  teamId: string,
  options: { name: string; script: ScriptTurn[]; tools: ToolSpec[]; finalText?: string; sandbox?: Record<string, unknown> },
): Promise<{ agentId: string; name: string }> {
  const token = stack.bootstrapToken;
  const name = unique(options.name);
  const endpoint = await trpcMutation<{ id: string }>(request, 'endpoints.create', token, { teamId, name, kind: 'faux', model: 'faux-1' });
  const client = new pg.Client({ connectionString: await stackDatabaseUrl(stack.home) });
  await client.connect();
  try {
    const config = { script: options.script, finalText: options.finalText ?? 'Done.', thinkMs: 0 };
    await client.query('UPDATE "ModelEndpoint" SET config = $2::jsonb WHERE id = $1', [endpoint.id, JSON.stringify(config)]);
  } finally {
    await client.end();
  }
  const agent = await trpcMutation<{ id: string }>(request, 'agents.create', token, {
    teamId,
    name,
    endpointId: endpoint.id,
    systemPrompt: 'You follow your script.',
    tools: options.tools,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  return { agentId: agent.id, name };
}
