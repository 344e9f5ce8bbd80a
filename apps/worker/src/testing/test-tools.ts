import { appendFile } from 'node:fs/promises';
import type { PgPool } from '@looplane/db';
import type { ToolResult } from '@looplane/engine';
import type { ToolRegistry } from '../tools/tool-registry';

/** The table the `record` test tool writes one row to per execution (created by the tests). */
export const TOOL_CALLS_TABLE = 'test_tool_executions';

/** Creates the executions table in a test database. */
export async function createToolCallsTable(pool: PgPool): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${TOOL_CALLS_TABLE} (run_id text NOT NULL, session_id text NOT NULL, call_id text NOT NULL, tool text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  );
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * Tools for the runtime's tests and benchmarks only (never registered by `main.ts`):
 * `record` (not idempotent) writes a row per execution so a test can prove no call ran twice;
 * `slow` waits `ms` (or until aborted) before recording; `echo` returns its text; `append` adds
 * `line` to the host file `file` (a side effect outside the log); `audited`
 * (idempotent) records whether its policy decision's audit row was committed before it ran.
 */
export function registerTestTools(registry: ToolRegistry, pool: PgPool): ToolRegistry {
  const record = async (tool: string, runId: string, sessionId: string, callId: string): Promise<ToolResult> => {
    await pool.query(`INSERT INTO ${TOOL_CALLS_TABLE} (run_id, session_id, call_id, tool) VALUES ($1, $2, $3, $4)`, [runId, sessionId, callId, tool]);
    return { ok: true, output: `recorded ${callId}` };
  };
  return (
    registry
      .register('record', (_args, call, ctx) => record('record', ctx.runId, ctx.sessionId, call.callId))
      .register('slow', async (args, call, ctx) => {
        await sleep(typeof args.ms === 'number' ? args.ms : 1000, ctx.signal);
        return record('slow', ctx.runId, ctx.sessionId, call.callId);
      })
      .register('echo', async (args) => ({ ok: true, output: String(args.text ?? '') }))
      // A side effect outside the event log: a line appended to a host file (replay tests count them).
      .register('append', async (args) => {
        await appendFile(String(args.file), `${String(args.line)}\n`);
        return { ok: true, output: `appended ${String(args.line)}` };
      })
      // Idempotent; records how many committed audit rows hold its own policy decision when it runs.
      .register('audited', async (_args, call, ctx) => {
        const found = await pool.query(
          `SELECT count(*)::int AS n FROM "AuditLog" WHERE action = 'policy.decided' AND "targetId" = $1 AND data->>'sessionId' = $2 AND data->>'callId' = $3`,
          [ctx.runId, ctx.sessionId, call.callId],
        );
        return record(`audited:${(found.rows[0] as { n: number }).n}`, ctx.runId, ctx.sessionId, call.callId);
      })
  );
}

/** Catalogue entries (run config `tools`) for the test tools. */
export const testToolSpecs = [
  { name: 'record', description: 'Record that it ran (not idempotent).', idempotent: false },
  { name: 'slow', description: 'Wait ms milliseconds, then record.', idempotent: false },
  { name: 'echo', description: 'Echo text.', idempotent: true },
  { name: 'audited', description: 'Record whether its decision was audited before it ran.', idempotent: true },
];
