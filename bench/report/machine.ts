// Where and on what a run of the benchmarks was measured: the commit (and whether the tree had
// uncommitted changes), the machine, and the Postgres settings that move the figures, read with
// SHOW from the server the benchmarks use (TEST_PG_ADMIN_URL).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { pgAdminUrl } from '@looplane/testkit';
import pg from 'pg';
import type { Results } from './schema';

const POSTGRES_SETTINGS = ['server_version', 'shared_buffers', 'synchronous_commit', 'fsync', 'wal_level'] as const;

export function gitCommit(root: string): Results['commit'] {
  const git = (args: string[]) => execFileSync('git', args, { cwd: root }).toString();
  try {
    const dirtyPaths = git(['status', '--porcelain'])
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => line.slice(3));
    return { sha: git(['rev-parse', 'HEAD']).trim(), short: git(['rev-parse', '--short', 'HEAD']).trim(), dirty: dirtyPaths.length > 0, dirtyPaths };
  } catch {
    return { sha: 'unknown', short: 'unknown', dirty: true, dirtyPaths: [] };
  }
}

function cpuModel(): string {
  try {
    const model = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim();
    if (model) return model;
  } catch {
    // not Linux: os.cpus() below
  }
  return cpus()[0]?.model ?? 'unknown';
}

export const loadAverage = () => loadavg().map((x) => Number(x.toFixed(2)));

/** SHOW of each setting on the benchmarks' server; null when it cannot be reached. */
async function postgresSettings(url = pgAdminUrl): Promise<Results['machine']['postgres']> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const values: Record<string, string> = {};
    for (const name of POSTGRES_SETTINGS) values[name] = String(((await client.query(`SHOW ${name}`)).rows[0] as Record<string, unknown>)[name]);
    return {
      version: values.server_version!,
      shared_buffers: values.shared_buffers!,
      synchronous_commit: values.synchronous_commit!,
      fsync: values.fsync!,
      wal_level: values.wal_level!,
    };
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The machine, its load average at the start; `end` is filled in when the run ends. */
export async function describeMachine(): Promise<Results['machine']> {
  const load = loadAverage();
  return {
    cpu: cpuModel(),
    cores: cpus().length,
    memoryBytes: totalmem(),
    node: process.versions.node,
    loadAverage: { start: load, end: load },
    postgres: await postgresSettings(),
  };
}
