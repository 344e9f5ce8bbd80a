// Shared setup of the SSE/API benchmarks: a fresh migrated database with a team, an agent and a
// token, and the API server in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createTestDatabase, type TestDatabase } from '@looplane/testkit';
import { createAgentFixture, createTeamFixture, issueToken } from '@looplane/api/testing';
import { apiServerBundle } from './build-server';

export interface Bench {
  db: TestDatabase;
  teamId: string;
  agentId: string;
  /** Bearer token (operator) of the team. */
  token: string;
  server: { url: string; child: ChildProcess };
  /** The CPU milliseconds the server has spent so far (take two and subtract for a window). */
  serverCpuMs(): Promise<number>;
  /** Stops the server (returns the CPU milliseconds it spent) and drops the database. */
  close(): Promise<{ serverCpuMs: number }>;
}

export interface ApiServer {
  url: string;
  child: ChildProcess;
  /** The CPU milliseconds the server has spent so far (take two and subtract for a window). */
  cpuMs(): Promise<number>;
  /** Stops the server; returns the CPU milliseconds it spent. */
  stop(): Promise<number>;
}

/**
 * The API server (server.ts) in a process of its own on `databaseUrl`; with `queuePrefix`, the
 * runs it creates are enqueued where a worker of the benchmark takes them; `env` adds to its
 * environment (LOOPLANE_ENCRYPTION_KEY: it serves inbound triggers too).
 */
export async function startApiServer(
  databaseUrl: string,
  options: { poolSize?: number; queuePrefix?: string; env?: Record<string, string> } = {},
): Promise<ApiServer> {
  // BENCH_PROFILE=dir writes a V8 CPU profile of the server there (for finding where time goes).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  // Plain JavaScript, like the worker: no TypeScript loader in the process being measured.
  const child = spawn(process.execPath, [...profile, await apiServerBundle()], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BENCH_POOL_SIZE: String(options.poolSize ?? 10),
      ...(options.queuePrefix ? { QUEUE_PREFIX: options.queuePrefix } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  const report = async (signal: NodeJS.Signals) => {
    const line = new Promise<string>((resolve) => lines.once('line', resolve));
    child.kill(signal);
    return (JSON.parse(await line) as { cpuMs: number }).cpuMs;
  };
  return {
    url,
    child,
    cpuMs: () => report('SIGUSR2'),
    async stop() {
      const cpuMs = await report('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      return cpuMs;
    },
  };
}

export async function startBench(options: { poolSize?: number } = {}): Promise<Bench> {
  const db = await createTestDatabase();
  const fx = await createTeamFixture(db.db);
  const agent = await createAgentFixture(db.db, fx.teamId);
  const token = (await issueToken(db.db, fx.teamId, fx.members.operator.id, 'operator')).secret;
  const server = await startApiServer(db.url, { poolSize: options.poolSize ?? 10 });
  return {
    db,
    teamId: fx.teamId,
    agentId: agent.agentId,
    token,
    server: { url: server.url, child: server.child },
    serverCpuMs: () => server.cpuMs(),
    async close() {
      const cpuMs = await server.stop();
      await db.drop();
      return { serverCpuMs: cpuMs };
    },
  };
}

/** The p-th percentile (0-100) of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
