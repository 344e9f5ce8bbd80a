// The three timed things of one repetition of the seeding benchmark: (a) the peer, a plain
// `git clone --depth 1` of the repository over the same server with the same token; (b) a real
// Looplane run from that repository, runs.create → its first model call; (c) a fork of that run's
// seeded session at `run.started` → the fork's first tool call done (its workspace comes from the
// store), with the git server's request log showing whether anything was fetched again.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSessionEvents } from '@looplane/db';
import { createTestAgent } from '@looplane/db/testing';
import type { EngineEvent, ScriptTurn } from '@looplane/engine';
import { waitFor } from '../../apps/worker/src/testing/test-runtime';
import { run } from './run-command';
import { now, SECRET_NAME, TOKEN_USER, type SeedingStack } from './stack';

const RUN_TIMEOUT_MS = 600_000;

/** Regular files under a directory, `.git` at its top left out. */
async function countFiles(dir: string): Promise<number> {
  const git = join(dir, '.git');
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.parentPath !== git && !e.parentPath.startsWith(`${git}/`) && !(e.parentPath === dir && e.name === '.git'))
    .length;
}

export interface CloneResult {
  ms: number;
  /** Requests the git server answered for it. */
  requests: number;
  files: number;
}

/** (a) `git clone --depth 1` into a fresh folder, the token sent as Basic auth on every request (as the worker sends it). */
export async function plainClone(stack: SeedingStack): Promise<CloneResult> {
  const dir = await mkdtemp(join(tmpdir(), 'looplane-bench-clone-'));
  const before = stack.server.requests.length;
  const basic = Buffer.from(`${TOKEN_USER}:${stack.token}`).toString('base64');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
  const target = join(dir, 'clone');
  try {
    const started = performance.now();
    await run('git', ['clone', '-q', '--depth', '1', stack.repository.url, target], env);
    const ms = performance.now() - started;
    const head = (await run('git', ['-C', target, 'rev-parse', 'HEAD'], env)).trim();
    if (head !== stack.repository.headCommit) throw new Error(`the clone is at ${head}, not ${stack.repository.headCommit}`);
    return { ms, requests: stack.server.requests.length - before, files: await countFiles(target) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The agent's script: its first turn loads `shell` and runs `true` (a fork's first tool call materialises its workspace), then it answers. */
const SCRIPT: ScriptTurn[] = [
  {
    calls: [
      { tool: 'load_tools', args: { names: ['shell'] } },
      { tool: 'shell', args: { command: 'true' } },
    ],
  },
  { finish: 'done' },
];

/** A faux agent of its own (so its model calls are told apart), with the sandbox's shell. */
export async function createAgent(stack: SeedingStack): Promise<{ agentId: string; endpointName: string }> {
  const { endpointId } = await createTestAgent(stack.database.db, stack.fx.teamId, { script: SCRIPT });
  const endpoint = await stack.database.db.modelEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
  const shell = stack.worker.sandbox!.tools.filter((t) => t.spec.name === 'shell').map((t) => ({ ...t.spec }));
  const operator = await stack.operator();
  const agent = await operator.agents.create({ teamId: stack.fx.teamId, name: `bench-seeding-${endpoint.name}`, endpointId, tools: shell });
  return { agentId: agent.id, endpointName: endpoint.name };
}

const atOf = (event: EngineEvent | undefined, what: string) => {
  if (!event) throw new Error(`no ${what} event`);
  return new Date(event.at).getTime();
};

export interface RunResult {
  /** runs.create called → the model called (the worker's model port, wall clock). */
  ms: number;
  /** runs.create called → it returned (the run committed and enqueued). */
  createMs: number;
  /** runs.create called → each event's timestamp (ms precision). */
  seededAtMs: number;
  startedAtMs: number;
  modelRequestedAtMs: number;
  /** The seed's snapshot in the store: the `put` transaction's ms and the pack's bytes. */
  putMs: number;
  packBytes: number;
  /** Requests the git server answered for the seed. */
  requests: number;
  files: number;
  bytes: number;
  runId: string;
  sessionId: string;
  /** run.started's seq (where the fork starts). */
  startedSeq: number;
}

/** (b) A real run from the repository: runs.create through the API, the worker seeds, then calls the model. */
export async function looplaneRun(stack: SeedingStack, agent: { agentId: string; endpointName: string }): Promise<RunResult> {
  const operator = await stack.operator();
  const db = stack.database.db;
  const before = stack.server.requests.length;
  const started = now();
  const { runId } = await operator.runs.create({
    teamId: stack.fx.teamId,
    agentId: agent.agentId,
    goal: 'Fix the failing build',
    workspace: { git: { url: stack.repository.url, secretRef: SECRET_NAME } },
  });
  const created = now();
  const modelAt = await waitFor(() => stack.modelCalls.get(agent.endpointName)?.[0], RUN_TIMEOUT_MS, 'the first model call');
  const runRow = await waitFor(
    async () => {
      const row = await db.run.findUniqueOrThrow({ where: { id: runId } });
      return ['succeeded', 'failed', 'cancelled'].includes(row.status) ? row : undefined;
    },
    RUN_TIMEOUT_MS,
    'the run to finish',
  );
  if (runRow.status !== 'succeeded') throw new Error(`run ${runId} ${runRow.status}: ${runRow.error ?? ''}`);
  const sessionId = runRow.mainSessionId!;
  const events = await loadSessionEvents(stack.worker.pool, sessionId);
  const seeded = events[0];
  if (seeded?.type !== 'workspace.seeded') throw new Error(`the first event is ${seeded?.type}, not workspace.seeded`);
  const payload = seeded.payload as { files: number; bytes: number; revision?: string };
  if (payload.revision !== stack.repository.headCommit) throw new Error(`seeded at ${payload.revision}, not ${stack.repository.headCommit}`);
  const runStarted = events.find((e) => e.type === 'run.started');
  const puts = stack.store.puts.filter((p) => p.sessionId === sessionId);
  return {
    ms: modelAt - started,
    createMs: created - started,
    seededAtMs: atOf(seeded, 'workspace.seeded') - started,
    startedAtMs: atOf(runStarted, 'run.started') - started,
    modelRequestedAtMs:
      atOf(
        events.find((e) => e.type === 'model.requested'),
        'model.requested',
      ) - started,
    // The seed's pack is the session's first; later ones are its tool calls'.
    putMs: puts[0]?.ms ?? Number.NaN,
    packBytes: puts[0]?.bytes ?? Number.NaN,
    requests: stack.server.requests.length - before,
    files: payload.files,
    bytes: payload.bytes,
    runId,
    sessionId,
    startedSeq: runStarted!.seq,
  };
}

export interface ForkResult {
  /** sessions.fork called → the fork's first tool call (`shell`) finished. */
  ms: number;
  /** That call alone, tool.started → tool.finished: the workspace materialised from the store, then `true` in bwrap. */
  toolMs: number;
  /** Requests the git server answered meanwhile (0: no second clone). */
  requests: number;
  /** Files in the fork's work tree afterwards. */
  files: number;
}

/** (c) Forks the seeded session at run.started and lets the worker run the branch to its first tool call. */
export async function forkSeeded(stack: SeedingStack, parent: RunResult): Promise<ForkResult> {
  const operator = await stack.operator();
  const db = stack.database.db;
  const before = stack.server.requests.length;
  const started = now();
  const fork = await operator.sessions.fork({ teamId: stack.fx.teamId, sessionId: parent.sessionId, atEvent: parent.startedSeq });
  const session = await waitFor(
    async () => {
      const row = await db.session.findUniqueOrThrow({ where: { id: fork.sessionId } });
      return ['succeeded', 'failed', 'cancelled'].includes(row.status) ? row : undefined;
    },
    RUN_TIMEOUT_MS,
    'the fork to finish',
  );
  if (session.status !== 'succeeded') throw new Error(`fork ${fork.sessionId} ${session.status}`);
  const events = (await loadSessionEvents(stack.worker.pool, fork.sessionId)).filter((e) => e.seq > fork.atEvent);
  const toolStarted = events.find((e) => e.type === 'tool.started' && (e.payload as { name: string }).name === 'shell');
  const callId = (toolStarted?.payload as { callId: string } | undefined)?.callId;
  const toolFinished = events.find((e) => e.type === 'tool.finished' && (e.payload as { callId: string }).callId === callId);
  if (!(toolFinished?.payload as { ok?: boolean } | undefined)?.ok)
    throw new Error(`the fork's shell call did not succeed: ${JSON.stringify(toolFinished?.payload)}`);
  return {
    ms: atOf(toolFinished, 'tool.finished') - started,
    toolMs: atOf(toolFinished, 'tool.finished') - atOf(toolStarted, 'tool.started'),
    requests: stack.server.requests.length - before,
    files: await countFiles(join(stack.workspaceRoot, fork.sessionId, 'work')),
  };
}
