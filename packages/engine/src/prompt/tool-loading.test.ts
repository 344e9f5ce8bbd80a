import { describe, expect, it } from 'vitest';
import { drive } from '../loop/drive';
import { longScript, longScriptTools, payloadsOf, sampleCatalogue, startFixture } from '../testing';
import { promptBytes } from './tokens';

async function session(toolLoading: 'on_demand' | 'eager', turns: number) {
  const f = await startFixture({ config: { tools: sampleCatalogue(), toolLoading }, script: longScript(turns), tools: longScriptTools() });
  await drive({ ports: f.ports });
  return f;
}

describe('on-demand tool loading', () => {
  it('first shows names and one-line descriptions plus load_tools; full schemas only after loading', async () => {
    const f = await session('on_demand', 4);
    const [first, second] = f.requests;
    expect(first!.tools.map((t) => t.name)).toEqual(['load_tools']);
    const system = first!.messages[0]!.content;
    for (const spec of sampleCatalogue()) expect(system).toContain(`- ${spec.name}: ${spec.description.split('\n')[0]}`);
    // Usage notes after the first line and the JSON schemas stay out of the prompt until loaded.
    expect(system).not.toContain('Binary files are refused');
    expect(JSON.stringify(first)).not.toContain('Absolute paths and .. segments are refused');
    expect(second!.tools.map((t) => t.name)).toEqual(['load_tools', 'read_file', 'grep', 'edit_file', 'run_tests']);
    expect(second!.tools[1]).toEqual({ name: 'read_file', description: sampleCatalogue()[0]!.description, parameters: sampleCatalogue()[0]!.parameters });
    expect(payloadsOf(f.store.events, 'tools.loaded')[0]).toMatchObject({ loaded: ['read_file', 'grep', 'edit_file', 'run_tests'], unknown: [] });
  });

  it('refuses a call to a tool that was not loaded, telling the model how to load it', async () => {
    const f = await startFixture({ config: { tools: sampleCatalogue() }, script: [{ calls: [{ tool: 'git_status', args: {} }] }, { finish: 'ok' }] });
    await drive({ ports: f.ports });
    expect(f.toolCalls).toEqual([]);
    expect(f.requests[1]!.messages.at(-1)?.content).toBe('Error: git_status is not loaded; call load_tools with ["git_status"] first');
  });

  it('saves prompt bytes against sending every schema (measured over a 30-turn session)', async () => {
    const eager = await session('eager', 30);
    const lazy = await session('on_demand', 30);
    const total = (f: typeof eager) => payloadsOf(f.store.events, 'model.requested').reduce((sum, r) => sum + r.promptBytes, 0);
    const firstBytes = (f: typeof eager) => promptBytes(f.requests[0]!.messages, f.requests[0]!.tools);
    const saved = 1 - total(lazy) / total(eager);
    const savedFirst = 1 - firstBytes(lazy) / firstBytes(eager);
    // 30 tools: the eager prompt carries ~11 kB of schemas on every call; on demand, ~2.5 kB of index plus 4 loaded schemas.
    expect(savedFirst).toBeGreaterThan(0.7);
    expect(saved).toBeGreaterThan(0.3);
    expect(payloadsOf(lazy.store.events, 'model.requested')[0]!.promptBytes).toBe(firstBytes(lazy));
    expect(lazy.store.events.at(-1)?.payload).toEqual(eager.store.events.at(-1)?.payload);
  });
});
