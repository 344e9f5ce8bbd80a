import { chmodSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BwrapDriver } from '@looplane/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { registerBuiltinTools } from '../tools/builtin-tools';
import { ToolRegistry } from '../tools/tool-registry';
import { WorkerSandbox } from './worker-sandbox';

const root = mkdtempSync(join(tmpdir(), 'looplane-worker-sandbox-off-'));
chmodSync(root, 0o711);
const logger = createLogger({ level: 'silent' });
const context = { runId: 'run-1', teamId: 'team-1', agentId: null };

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function registryWith(sandbox: WorkerSandbox) {
  return registerBuiltinTools(new ToolRegistry(), sandbox);
}

describe('a sandbox driver that does not work on this host', () => {
  it('still gives a sandbox; every tool call fails with { ok: false } naming the reason, and nothing runs', async () => {
    const sandbox = await WorkerSandbox.start({
      driver: 'bwrap',
      workspaceRoot: join(root, 'broken-bwrap'),
      environment: 'production',
      drivers: { bwrap: new BwrapDriver({ stateDir: join(root, 'broken-state'), bwrapPath: '/nonexistent/bwrap' }) },
      logger,
    });
    expect(sandbox.unavailable).toMatch(/^the bwrap sandbox driver does not work on this host: .+/);
    expect(sandbox.probe).toMatchObject({ driver: 'bwrap', available: false });
    const registry = await registryWith(sandbox);
    expect(registry.names()).toEqual(['edit_file', 'http_request', 'list_files', 'read_file', 'search_files', 'shell', 'write_file']);
    const runner = registry.runnerFor({ ...context, sessionId: 'session-broken' });
    for (const [name, args] of [
      ['shell', { command: 'touch /workspace/x' }],
      ['write_file', { path: 'a.txt', content: 'x' }],
      ['read_file', { path: 'a.txt' }],
    ] as const) {
      const result = await runner.run({ callId: `call-${name}`, name, args });
      expect(result.ok).toBe(false);
      expect(result.output).toContain('not run: sandbox unavailable on this worker: the bwrap sandbox driver does not work on this host');
      expect(result.output).toContain(sandbox.probe.reason!);
    }
    // Not even the workspace was created: nothing ran outside a sandbox.
    expect(existsSync(join(root, 'broken-bwrap', 'session-broken'))).toBe(false);
  });

  it('a workspace root the sandbox uids cannot traverse makes the sandbox unavailable, saying which directory', async () => {
    const closed = join(root, 'closed');
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    const sandbox = await WorkerSandbox.start({ driver: 'bwrap', workspaceRoot: join(closed, 'workspaces'), environment: 'production', logger });
    expect(sandbox.unavailable).toBe(
      `${closed} is not traversable by the sandbox uids (it needs o+x, e.g. chmod 711), so workspaces under ${join(closed, 'workspaces')} cannot be used`,
    );
    const result = await (await registryWith(sandbox))
      .runnerFor({ ...context, sessionId: 'session-closed' })
      .run({ callId: 'c1', name: 'list_files', args: {} });
    expect(result).toMatchObject({ ok: false, output: expect.stringContaining('is not traversable by the sandbox uids') });
  });

  it('refuses dangerous-none outside development, with the reason', async () => {
    const sandbox = await WorkerSandbox.start({ driver: 'dangerous-none', workspaceRoot: join(root, 'none-prod'), environment: 'production', logger });
    expect(sandbox.unavailable).toBe(
      'the dangerous-none sandbox driver does not work on this host: the dangerous-none driver runs only in development (this is production)',
    );
    const result = await (await registryWith(sandbox))
      .runnerFor({ ...context, sessionId: 'session-none' })
      .run({ callId: 'c1', name: 'shell', args: { command: 'id' } });
    expect(result).toEqual({ ok: false, output: `not run: sandbox unavailable on this worker: ${sandbox.unavailable}` });
  });

  it('refuses a call of an agent that requires a real sandbox when the worker runs dangerous-none', async () => {
    const sandbox = await WorkerSandbox.start({ driver: 'dangerous-none', workspaceRoot: join(root, 'none-dev'), environment: 'development', logger });
    expect(sandbox.unavailable).toBeNull();
    const runner = (await registryWith(sandbox)).runnerFor({
      ...context,
      sessionId: 'session-dev',
      sandbox: { driver: 'bwrap', network: 'none', egressHosts: [], limits: {} },
    });
    const result = await runner.run({ callId: 'c1', name: 'shell', args: { command: 'id' } });
    expect(result).toEqual({ ok: false, output: 'not run: the agent requires the bwrap sandbox or stronger, but this worker runs dangerous-none' });
  });

  it('probes every driver for the Settings page, weakest isolation first, with limits and their enforcement', async () => {
    const sandbox = await WorkerSandbox.start({ driver: 'bwrap', workspaceRoot: join(root, 'all'), environment: 'production', logger });
    const probes = await sandbox.allProbes();
    expect(probes.map((p) => p.driver)).toEqual(['bwrap', 'podman', 'gvisor', 'microvm', 'dangerous-none']);
    expect(probes[0]).toMatchObject({ available: true, limitsEnforced: { wallTimeMs: { enforced: true, by: 'supervisor' } } });
    expect(probes[4]).toMatchObject({ available: false, reason: expect.stringContaining('only in development') });
  }, 150_000);
});
