import { MEMORY_TOOLS, memoryGet, memoryList, memorySet, parseSwarm, type Db, type Prisma } from '@looplane/db';
import type { ToolResult } from '@looplane/engine';
import { z } from 'zod';
import type { ToolContext, ToolRegistry } from '../tools/tool-registry';

const keySchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_./:-]+$/, 'keys are letters, digits and _ . / : -');
const getArgs = z.object({ key: keySchema });
const listArgs = z.object({ prefix: z.string().max(200).default('') });
const setArgs = z.object({ key: keySchema, value: z.json(), expectedVersion: z.int().min(0) });
/** A value larger than this is refused: the blackboard is for notes, not files. */
const MAX_VALUE_BYTES = 64 * 1024;

/** The node's read and write prefixes in this run (none: the session is no graph node). */
async function scopesOf(db: Db, context: ToolContext): Promise<{ read: string[]; write: string[] }> {
  const session = await db.session.findUnique({ where: { id: context.sessionId }, select: { nodeKey: true, run: { select: { swarm: true } } } });
  const node = parseSwarm(session?.run.swarm)?.nodes.find((n) => n.key === session?.nodeKey);
  return { read: node?.readPrefixes ?? [], write: node?.writePrefixes ?? [] };
}

const allowed = (prefixes: string[], key: string) => prefixes.some((p) => key.startsWith(p));
const fail = (output: string): ToolResult => ({ ok: false, output });
const bad = (error: z.ZodError) => fail(`invalid arguments: ${error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')}`);

/**
 * The blackboard tools: a run-scoped versioned key-value store with per-node read/write key
 * prefixes. A write is a compare-and-set on the key's version and is recorded as a
 * `memory.written` event (the result's `memoryWrites`, appended before `tool.finished`).
 */
export function registerMemoryTools(registry: ToolRegistry, db: Db): void {
  if (registry.names().includes(MEMORY_TOOLS.get)) return;
  registry.register(
    MEMORY_TOOLS.get,
    async (args, _call, context) => {
      const parsed = getArgs.safeParse(args);
      if (!parsed.success) return bad(parsed.error);
      if (!allowed((await scopesOf(db, context)).read, parsed.data.key)) return fail(`this node may not read ${parsed.data.key}`);
      const entry = await memoryGet(db, context.runId, parsed.data.key);
      return {
        ok: true,
        output: JSON.stringify(entry ? { key: entry.key, version: entry.version, value: entry.value } : { key: parsed.data.key, version: 0, value: null }),
      };
    },
    { idempotent: true },
  );
  registry.register(
    MEMORY_TOOLS.list,
    async (args, _call, context) => {
      const parsed = listArgs.safeParse(args);
      if (!parsed.success) return bad(parsed.error);
      const { read } = await scopesOf(db, context);
      const prefixes = read
        .filter((p) => p.startsWith(parsed.data.prefix) || parsed.data.prefix.startsWith(p))
        .map((p) => (p.length >= parsed.data.prefix.length ? p : parsed.data.prefix));
      if (prefixes.length === 0) return { ok: true, output: '[]' };
      return { ok: true, output: JSON.stringify(await memoryList(db, context.runId, prefixes, 200)) };
    },
    { idempotent: true },
  );
  registry.register(MEMORY_TOOLS.set, async (args, _call, context) => {
    const parsed = setArgs.safeParse(args);
    if (!parsed.success) return bad(parsed.error);
    const { key, value, expectedVersion } = parsed.data;
    if (!allowed((await scopesOf(db, context)).write, key)) return fail(`this node may not write ${key}`);
    if (Buffer.byteLength(JSON.stringify(value)) > MAX_VALUE_BYTES) return fail(`the value is over ${MAX_VALUE_BYTES} bytes`);
    const outcome = await memorySet(db, { runId: context.runId, sessionId: context.sessionId, key, value: value as Prisma.InputJsonValue, expectedVersion });
    if (!outcome.written) return fail(`not written: ${key} is at version ${outcome.current}, not ${expectedVersion}; read it again`);
    return { ok: true, output: JSON.stringify({ key, version: outcome.version }), memoryWrites: [{ key, value: value ?? null, version: outcome.version }] };
  });
}
