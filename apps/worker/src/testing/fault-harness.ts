import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPgPool, type Db, type PgPool } from '@looplane/db';
import { repoRoot } from '@looplane/testkit';
import { Redis } from 'ioredis';
import { logProblems } from './log-invariants';
import { TOOL_CALLS_TABLE } from './test-tools';

/**
 * What the fault tests need around real worker processes: spawning and killing them, a private
 * redis-server and a throwaway Postgres cluster they can restart, and an audit of every run.
 */

const run = promisify(execFile);
const workerDir = fileURLToPath(new URL('../..', import.meta.url));
const entry = fileURLToPath(new URL('./worker-with-test-tools.ts', import.meta.url));

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves with the worker id (its lease owner) once it logged "worker ready". */
  ready: Promise<string>;
  exited: Promise<number | null>;
  output(): string;
}

/**
 * Spawns the real worker process (the production entry plus the test tools), logging to
 * `logFile` as well as keeping its output for assertions. From source through tsx by default;
 * `bundle` runs a bundle made by build.mjs with plain node, as production does.
 */
export function spawnWorker(env: Record<string, string>, logFile: string, nodeArgs: string[] = [], bundle?: string): WorkerProcess {
  const child = spawn(process.execPath, bundle ? [...nodeArgs, bundle] : [...nodeArgs, '--import', 'tsx', entry], {
    cwd: workerDir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  let output = '';
  let resolveReady: (id: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (resolveReady = resolve));
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    log.write(text);
    const line = text.split('\n').find((l) => l.includes('"worker ready"'));
    if (line) resolveReady((JSON.parse(line) as { worker: { id: string } }).worker.id);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => log.end());
  return { child, pid: child.pid!, ready, exited, output: () => output };
}

/** A private redis-server (never the shared one) that can be killed and restarted on its port. */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      const pong = await probe.connect().then(
        () => probe.ping(),
        () => '',
      );
      probe.disconnect();
      if (pong === 'PONG') return;
      if (Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Kills the server outright (nothing is persisted: every queue key is lost). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * A throwaway Postgres 15 cluster on a free port (initdb + pg_ctl as the `postgres` user, which
 * must exist: Postgres refuses to run as root), with the real migrations applied.
 */
export class ThrowawayPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/looplane`;
  }

  static async create(): Promise<ThrowawayPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'looplane-pg-'));
    const { stdout } = await run('id', ['-u', 'postgres']);
    const uid = Number(stdout.trim());
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    for (const sub of ['', 'data', 'sock']) {
      mkdirSync(join(dir, sub), { recursive: true });
      chownSync(join(dir, sub), uid, Number(gid.trim()));
    }
    const pg = new ThrowawayPostgres(dir, await freePort());
    await pg.asPostgres('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync']);
    await pg.start();
    await pg.asPostgres('createdb', ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', 'looplane']);
    await applyMigrations(pg.url);
    return pg;
  }

  private asPostgres(command: string, args: string[]) {
    return run('runuser', ['-u', 'postgres', '--', command, ...args], { env: { PATH: `${postgresBinDir()}:${process.env.PATH}` } });
  }

  start() {
    const options = `-p ${this.port} -k ${join(this.dir, 'sock')} -c listen_addresses=127.0.0.1 -c max_connections=200`;
    return this.asPostgres('pg_ctl', ['-D', join(this.dir, 'data'), '-w', '-l', join(this.dir, 'postgres.log'), '-o', options, 'start']);
  }

  /** `immediate` is a crash: no checkpoint, recovery from the WAL at the next start. */
  stop(mode: 'fast' | 'immediate' = 'fast') {
    return this.asPostgres('pg_ctl', ['-D', join(this.dir, 'data'), '-w', '-m', mode, 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Debian keeps initdb and pg_ctl in /usr/lib/postgresql/<version>/bin, off PATH: the newest one. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : '';
}

/** Applies prisma/migrations/* in order to an empty database (what `prisma migrate deploy` runs). */
async function applyMigrations(url: string): Promise<void> {
  const dir = join(repoRoot, 'prisma', 'migrations');
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const pool = createPgPool(url, { max: 1 });
  try {
    for (const name of names) await pool.query({ text: readFileSync(join(dir, name, 'migration.sql'), 'utf8') });
  } finally {
    await pool.end();
  }
}

export interface RunAudit {
  runs: number;
  statuses: Record<string, number>;
  /** Log invariant violations (gaps, duplicates, counters), per run. */
  logProblems: string[];
  /** Non-idempotent calls that executed more than once (must be none). */
  duplicateExecutions: string[];
  /** Executions with no `tool.started` before them in the log (must be none). */
  unloggedExecutions: string[];
  /** Non-idempotent calls started but never finished by the worker that started them (reported interrupted). */
  interruptedCalls: number;
  /** Sessions claimed more than once (a worker died or shut down while holding them). */
  takeovers: number;
  events: number;
}

/** Checks every run of `runIds` against what must survive any crash. */
export async function auditRuns(db: Db, pool: PgPool, runIds: readonly string[]): Promise<RunAudit> {
  const runs = await db.run.findMany({ where: { id: { in: [...runIds] } }, select: { id: true, status: true, rootSessionId: true } });
  const statuses: Record<string, number> = {};
  for (const r of runs) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const problems: string[] = [];
  for (const id of runIds) for (const p of await logProblems(db, id)) problems.push(`${id}: ${p}`);
  const executions = await pool.query({
    text: `SELECT run_id, call_id, count(*)::int AS n FROM ${TOOL_CALLS_TABLE} WHERE run_id = ANY($1) GROUP BY run_id, call_id`,
    values: [[...runIds]],
  });
  const rows = executions.rows as { run_id: string; call_id: string; n: number }[];
  const started = await db.event.findMany({ where: { runId: { in: [...runIds] }, type: 'tool.started' }, select: { runId: true, payload: true } });
  const startedKeys = new Set(started.map((e) => `${e.runId}/${(e.payload as { callId: string }).callId}`));
  const sessions = await db.session.findMany({ where: { runId: { in: [...runIds] } }, select: { leaseVersion: true } });
  return {
    runs: runs.length,
    statuses,
    logProblems: problems,
    duplicateExecutions: rows.filter((r) => r.n > 1).map((r) => `${r.run_id}/${r.call_id} ran ${r.n} times`),
    unloggedExecutions: rows.filter((r) => !startedKeys.has(`${r.run_id}/${r.call_id}`)).map((r) => `${r.run_id}/${r.call_id}`),
    interruptedCalls: await db.event.count({ where: { runId: { in: [...runIds] }, type: 'tool.interrupted' } }),
    takeovers: sessions.filter((s) => s.leaseVersion > 1).length,
    events: await db.event.count({ where: { runId: { in: [...runIds] } } }),
  };
}

/** Milliseconds of a random pause in [min, max). */
export function jitter(min: number, max: number): number {
  return Math.round(min + Math.random() * (max - min));
}
