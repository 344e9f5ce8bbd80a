import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { build } from 'esbuild';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDbOnPool, createPgPool, type PgPool } from '@looplane/db';
import { BwrapDriver } from '@looplane/sandbox';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { callerAs, createTeamFixture, createTestLive, issueToken, type TeamFixture, type TestLive } from '@looplane/api/testing';
import { createLogger } from '../logger';
import { WorkerMetrics } from '../metrics/worker-metrics';
import { ModelFactory } from '../ports/model-factory';
import { startRuntime, type Runtime } from '../runtime/runtime';
import { TeamEgressSource } from '../sandbox/team-egress';
import { WorkerSandbox } from '../sandbox/worker-sandbox';
import { waitForRun } from '../testing/runtime-suite';
import { testRedisUrl, waitFor } from '../testing/test-runtime';
import { registerBuiltinTools } from '../tools/builtin-tools';
import { createMcpToolHandler } from './mcp-call';
import { McpDiscovery } from './mcp-discovery';
import { McpToolRegistry } from './mcp-tool-registry';

/**
 * The real `@modelcontextprotocol/server-filesystem` from npm, bundled into one file and bound
 * read-only into the bwrap sandbox (as an operator binds a toolchain outside /usr), registered
 * through the API, listed by the worker, and called by an agent of a faux run under the team's
 * policy: writing needs an approval, listing does not.
 */
const root = mkdtempSync(join(tmpdir(), 'looplane-mcp-'));
chmodSync(root, 0o755);
// Not under /tmp: the sandbox mounts its own /tmp over whatever is bound there.
const toolchain = mkdtempSync('/var/tmp/looplane-mcp-bin-');
const serverFile = join(toolchain, 'server-filesystem.mjs');
const everythingFile = join(toolchain, 'server-everything.mjs');
let db: TestDatabase;
let live: TestLive;
let pool: PgPool;
let redis: Redis;
let sandbox: WorkerSandbox;
let runtime: Runtime;
let discovery: McpDiscovery;
let fx: TeamFixture;
const logger = createLogger({ level: 'silent' });

beforeAll(async () => {
  const resolve = createRequire(import.meta.url).resolve;
  for (const [name, outfile] of [
    ['server-filesystem', serverFile],
    ['server-everything', everythingFile],
  ] as const) {
    await build({
      entryPoints: [join(dirname(resolve(`@modelcontextprotocol/${name}/package.json`)), 'dist', 'index.js')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'error',
      // The servers' CommonJS dependencies call require(); give the ESM bundle one.
      banner: { js: "import { createRequire as __looplaneRequire } from 'node:module'; const require = __looplaneRequire(import.meta.url);" },
    });
    chmodSync(outfile, 0o644);
  }
  chmodSync(toolchain, 0o755);

  db = await createTestDatabase();
  live = await createTestLive();
  pool = createPgPool(db.url, { max: 5 });
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: null });
  const workspaceRoot = join(root, 'workspaces');
  sandbox = await WorkerSandbox.start({
    driver: 'bwrap',
    workspaceRoot,
    environment: 'test',
    logger,
    // Where a run may connect is the team policy's egress allowlist, narrowed by the template's hosts.
    egress: new TeamEgressSource({ pool, encryptionKey: undefined, logger, ttlMs: 0 }),
    drivers: { bwrap: new BwrapDriver({ stateDir: join(workspaceRoot, '.sandbox', 'bwrap'), extraReadOnlyBinds: [toolchain] }) },
  });
  expect(sandbox.unavailable).toBeNull();
  const prefix = live.queue.opts.prefix ?? 'bull';
  const tools = new McpToolRegistry(new WorkerMetrics({ pool, redis, queuePrefix: prefix, workerId: 'w_mcp_test' }));
  registerBuiltinTools(tools, sandbox);
  const workerDb = createDbOnPool(pool);
  tools.routeMcp(createMcpToolHandler({ db: workerDb, sandbox }));
  discovery = new McpDiscovery({ db: workerDb, sandbox, logger });
  runtime = await startRuntime({
    pool,
    redis,
    publisher: redis.duplicate(),
    subscriber: redis.duplicate(),
    queuePrefix: prefix,
    workerId: 'w_mcp_test',
    concurrency: 5,
    leaseTtlMs: 30_000,
    reconcileIntervalMs: 60_000,
    drainMs: 2000,
    tools,
    models: new ModelFactory(undefined),
    logger,
  });
  fx = await createTeamFixture(db.db);
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await sandbox?.close();
  await pool?.end();
  redis?.disconnect();
  await live?.close();
  await db?.drop();
  await rm(root, { recursive: true, force: true });
  await rm(toolchain, { recursive: true, force: true });
});

describe('an MCP stdio server in the sandbox', () => {
  it('is listed by the worker; a faux run loads and calls its tools, with an approval where the policy says so', async () => {
    const deps = { db: db.db, dispatch: live.dispatch };
    const admin = await callerAs(deps, { bearer: (await issueToken(db.db, fx.teamId, fx.members.admin.id, 'admin')).secret });
    await admin.mcp.add({ teamId: fx.teamId, name: 'files', transport: 'stdio', command: 'node', args: [serverFile, '/workspace'] });
    expect(await discovery.once()).toBe(1);
    const row = await db.db.mcpServer.findFirstOrThrow({ where: { teamId: fx.teamId, name: 'files' } });
    expect(row.toolsError).toBeNull();
    expect((row.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(expect.arrayContaining(['write_file', 'list_directory', 'read_text_file']));

    // Writing through the server needs an approver; everything else it offers is allowed.
    await db.db.policy.create({
      data: {
        teamId: fx.teamId,
        name: 'mcp',
        activeVersion: 1,
        versions: {
          create: {
            version: 1,
            document: {
              version: 1,
              name: 'mcp',
              default: 'deny',
              rules: [
                { id: 'mcp-write', match: { tool: 'mcp:files:write_file' }, outcome: 'require_approval', risk: 'medium' },
                { id: 'mcp-rest', match: { tool: 'mcp:files:*' }, outcome: 'allow' },
              ],
            },
          },
        },
      },
    });
    const script = [
      { calls: [{ tool: 'load_tools', args: { names: ['mcp:files:write_file', 'mcp:files:list_directory'] } }] },
      { calls: [{ tool: 'mcp:files:write_file', args: { path: '/workspace/notes.txt', content: 'written over MCP' } }] },
      { calls: [{ tool: 'mcp:files:list_directory', args: { path: '/workspace' } }] },
      { finish: 'done' },
    ];
    const endpoint = await db.db.modelEndpoint.create({ data: { teamId: fx.teamId, name: 'faux', kind: 'faux', model: 'faux-1', config: { script } } });
    const agent = await db.db.agentTemplate.create({ data: { teamId: fx.teamId, name: 'mcp-agent', endpointId: endpoint.id } });

    const operator = await callerAs(deps, { bearer: (await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret });
    const { runId } = await operator.runs.create({ teamId: fx.teamId, agentId: agent.id, goal: 'Leave a note' });
    const approval = await waitFor(() => db.db.approval.findFirst({ where: { runId, status: 'pending' } }).then((a) => a ?? undefined), 30_000, 'the approval');
    expect(approval.tool).toBe('mcp:files:write_file');

    const approver = await callerAs(deps, { userId: fx.members.approver.id });
    await approver.approvals.decide({ teamId: fx.teamId, approvalId: approval.id, decision: 'approve', comment: 'ok' });
    expect((await waitForRun(db.db, runId, undefined, 60_000)).status).toBe('succeeded');

    const events = await db.db.event.findMany({ where: { runId }, orderBy: { eventNo: 'asc' } });
    const payload = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);
    expect(payload('tools.loaded')[0]).toMatchObject({ loaded: ['mcp:files:write_file', 'mcp:files:list_directory'], unknown: [] });
    expect(payload('policy.decided').map((p) => p.decision)).toEqual(['require_approval', 'allow']);
    expect(payload('tool.started').map((p) => p.name)).toEqual(['mcp:files:write_file', 'mcp:files:list_directory']);
    const finished = payload('tool.finished');
    expect(finished.map((p) => p.ok)).toEqual([true, true]);
    expect(finished[1]!.output).toContain('[FILE] notes.txt');

    const session = await db.db.run.findUniqueOrThrow({ where: { id: runId }, select: { mainSessionId: true } });
    expect(await readFile(join(root, 'workspaces', session.mainSessionId!, 'work', 'notes.txt'), 'utf8')).toBe('written over MCP');
    // The write was committed like any mutating tool's.
    expect(typeof finished[0]!.commit).toBe('string');
  }, 120_000);

  it('runs the reference server-everything too: its echo and get-sum tools, called by an agent', async () => {
    const deps = { db: db.db, dispatch: live.dispatch };
    const teamId = fx.otherTeamId;
    const admin = await callerAs(deps, { bearer: (await issueToken(db.db, teamId, fx.outsider.id, 'admin')).secret });
    await admin.mcp.add({ teamId, name: 'everything', transport: 'stdio', command: 'node', args: [everythingFile, 'stdio'] });
    expect(await discovery.once()).toBe(1);
    await db.db.policy.create({
      data: {
        teamId,
        name: 'mcp',
        activeVersion: 1,
        versions: {
          create: {
            version: 1,
            document: { version: 1, name: 'mcp', default: 'deny', rules: [{ id: 'everything', match: { tool: 'mcp:everything:*' }, outcome: 'allow' }] },
          },
        },
      },
    });
    const script = [
      { calls: [{ tool: 'load_tools', args: { names: ['mcp:everything:echo', 'mcp:everything:get-sum'] } }] },
      {
        calls: [
          { tool: 'mcp:everything:echo', args: { message: 'hello MCP' } },
          { tool: 'mcp:everything:get-sum', args: { a: 2, b: 40 } },
        ],
      },
      { finish: 'done' },
    ];
    const endpoint = await db.db.modelEndpoint.create({ data: { teamId, name: 'faux', kind: 'faux', model: 'faux-1', config: { script } } });
    const agent = await db.db.agentTemplate.create({ data: { teamId, name: 'everything-agent', endpointId: endpoint.id } });
    const { runId } = await admin.runs.create({ teamId, agentId: agent.id, goal: 'Say hello and add' });
    expect((await waitForRun(db.db, runId, undefined, 60_000)).status).toBe('succeeded');
    const finished = (await db.db.event.findMany({ where: { runId, type: 'tool.finished' }, orderBy: { eventNo: 'asc' } })).map(
      (e) => e.payload as { ok: boolean; output: string },
    );
    expect(finished.map((f) => f.ok)).toEqual([true, true]);
    expect(finished[0]!.output).toBe('Echo: hello MCP');
    expect(finished[1]!.output).toContain('42');
  }, 120_000);

  it('reaches a streamable HTTP server only through the run’s egress proxy', async () => {
    const web = await serveHttpMcp();
    try {
      const deps = { db: db.db, dispatch: live.dispatch };
      const teamId = fx.teamId;
      const admin = await callerAs(deps, { bearer: (await issueToken(db.db, teamId, fx.members.admin.id, 'admin')).secret });
      await admin.mcp.add({ teamId, name: 'web', transport: 'http', url: `${web.url}/mcp` });
      expect(await discovery.once()).toBe(1);
      const row = await db.db.mcpServer.findFirstOrThrow({ where: { teamId, name: 'web' } });
      expect(row.toolsError).toBeNull();
      expect((row.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(['shout']);
      // The team's policy (from the first test) allows mcp:files:* only: let mcp:web:* through, and its host.
      await db.db.policy.updateMany({ where: { teamId }, data: { activeVersion: 2 } });
      const policy = await db.db.policy.findFirstOrThrow({ where: { teamId } });
      await db.db.policyVersion.create({
        data: {
          policyId: policy.id,
          version: 2,
          document: {
            version: 1,
            name: 'mcp',
            default: 'deny',
            rules: [{ id: 'web', match: { tool: 'mcp:web:*' }, outcome: 'allow' }],
            egress: { allow: [new URL(web.url).host] },
          },
        },
      });

      const script = [
        { calls: [{ tool: 'load_tools', args: { names: ['mcp:web:shout'] } }] },
        { calls: [{ tool: 'mcp:web:shout', args: { text: 'hello' } }] },
        { finish: 'done' },
      ];
      const endpoint = await db.db.modelEndpoint.create({ data: { teamId, name: 'faux-web', kind: 'faux', model: 'faux-1', config: { script } } });
      const runOf = async (name: string, sandbox: object) => {
        const agent = await db.db.agentTemplate.create({ data: { teamId, name, endpointId: endpoint.id, sandbox } });
        const { runId } = await admin.runs.create({ teamId, agentId: agent.id, goal: 'Shout' });
        expect((await waitForRun(db.db, runId, undefined, 60_000)).status).toBe('succeeded');
        const events = await db.db.event.findMany({ where: { runId }, orderBy: { eventNo: 'asc' } });
        return {
          finished: events.filter((e) => e.type === 'tool.finished').map((e) => e.payload as { ok: boolean; output: string }),
          egress: events.filter((e) => e.type === 'egress.decided').map((e) => e.payload as { host: string; allowed: boolean }),
        };
      };
      const online = await runOf('web-agent', { network: 'egress', egressHosts: [new URL(web.url).host] });
      expect(online.finished).toEqual([expect.objectContaining({ ok: true, output: 'HELLO' })]);
      expect(online.egress.length).toBeGreaterThan(0);
      expect(online.egress.every((d) => d.host === '127.0.0.1' && d.allowed)).toBe(true);
      const seen = web.requests();

      const offline = await runOf('offline-agent', {});
      expect(offline.finished).toEqual([expect.objectContaining({ ok: false, output: expect.stringMatching(/no network/) })]);
      expect(web.requests()).toBe(seen);
    } finally {
      await web.close();
    }
  }, 120_000);

  it('fails a call to a server that is not registered in the caller’s team, visibly', async () => {
    const handler = createMcpToolHandler({ db: createDbOnPool(pool), sandbox });
    const result = await handler({}, { callId: 'c1', name: 'mcp:nope:tool', args: {} } as never, {
      runId: 'r',
      sessionId: 's',
      teamId: fx.otherTeamId,
      agentId: null,
      signal: undefined,
    });
    expect(result).toMatchObject({ ok: false });
    expect(result.output).toMatch(/not registered/);
  });
});

/** A streamable HTTP MCP server on the host with one tool, `shout`; counts the requests it gets. */
async function serveHttpMcp(): Promise<{ url: string; requests(): number; close(): Promise<void> }> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    count += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const mcp = new McpServer({ name: 'shouter', version: '1.0.0' });
      mcp.registerTool('shout', { description: 'Upper-cases text', inputSchema: { text: z.string() } }, ({ text }) => ({
        content: [{ type: 'text', text: text.toUpperCase() }],
      }));
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers: req.headers as Record<string, string>,
        ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      });
      void mcp
        .connect(transport)
        .then(() => transport.handleRequest(request))
        .then(async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
          await mcp.close();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
