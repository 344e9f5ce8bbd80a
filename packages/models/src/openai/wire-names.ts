import type { ModelRequest, ModelResult } from '@looplane/engine';

// What Chat Completions servers accept as a function name.
const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Tool names as the provider sees them. Catalogue names such as `mcp:<server>:<tool>` carry
 * characters Chat Completions refuses; they travel as `mcp__<server>__<tool>` (other characters as
 * `_`) and are mapped back on the way in, from the names this request offered, so an answer can
 * only ever name a tool the engine knows.
 */
export function wireNames(request: ModelRequest) {
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  const names = [...request.tools.map((t) => t.name), ...request.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((c) => c.name) : []))];
  for (const name of names) {
    if (WIRE_NAME.test(name) || toWire.has(name)) continue;
    let wire = name
      .replace(/:/g, '__')
      .replace(/[^a-zA-Z0-9_-]/g, '_')
      .slice(0, 64);
    // Two names that encode alike get a numbered suffix, so the mapping stays one to one.
    for (let n = 2; fromWire.has(wire) || names.includes(wire); n++) wire = `${wire.slice(0, 60)}_${n}`;
    toWire.set(name, wire);
    fromWire.set(wire, name);
  }
  const encode = (name: string) => toWire.get(name) ?? name;
  return {
    /** The request with every tool name in its wire form. */
    encode(req: ModelRequest): ModelRequest {
      if (toWire.size === 0) return req;
      return {
        ...req,
        tools: req.tools.map((t) => ({ ...t, name: encode(t.name) })),
        messages: req.messages.map((m) => (m.role === 'assistant' ? { ...m, toolCalls: m.toolCalls.map((c) => ({ ...c, name: encode(c.name) })) } : m)),
      };
    },
    /** The result with tool names back in catalogue form. */
    decode(result: ModelResult): ModelResult {
      if (toWire.size === 0 || !result.ok) return result;
      return { ...result, toolCalls: result.toolCalls.map((c) => ({ ...c, name: fromWire.get(c.name) ?? c.name })) };
    },
  };
}
