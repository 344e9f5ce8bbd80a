import type { ScriptTurn } from '../model/scripted-model';
import type { ToolHandler } from './ports';

/** Deterministic filler of a given length, so tool outputs have realistic sizes. */
function text(seed: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += `${seed}#${i} `;
  return out.slice(0, length);
}

/**
 * A long coding-agent session against `sampleCatalogue()`: load tools, then read, search, edit and
 * test in rotation, with a final answer on the last turn. Every turn but the last calls a tool.
 */
export function longScript(turns: number): ScriptTurn[] {
  const script: ScriptTurn[] = [
    { say: 'Loading the tools I need.', calls: [{ tool: 'load_tools', args: { names: ['read_file', 'grep', 'edit_file', 'run_tests'] } }] },
  ];
  for (let i = 1; i < turns - 1; i++) {
    const file = `src/module-${i % 17}.ts`;
    switch (i % 4) {
      case 0:
        script.push({ calls: [{ tool: 'read_file', args: { path: file } }] });
        break;
      case 1:
        script.push({
          say: `Searching for usages (step ${i}).`,
          calls: [
            { tool: 'grep', args: { pattern: `fn${i}` } },
            { tool: 'read_file', args: { path: file, offset: i } },
          ],
        });
        break;
      case 2:
        script.push({ say: `Editing ${file}.`, calls: [{ tool: 'edit_file', args: { path: file, old_string: `a${i}`, new_string: `b${i}` } }] });
        break;
      default:
        script.push({ calls: [{ tool: 'run_tests', args: { filter: `module-${i % 17}` } }] });
    }
  }
  script.push({ finish: `Finished after ${turns} turns: all tests pass.` });
  return script;
}

/** Deterministic handlers for the tools `longScript` uses. */
export function longScriptTools(): Record<string, ToolHandler> {
  return {
    read_file: (args) => text(`${args.path}:${args.offset ?? 1}`, 600),
    grep: (args) => text(`match ${args.pattern}`, 300),
    edit_file: (args) => `Replaced 1 occurrence in ${args.path}.`,
    run_tests: (args) => `${args.filter}: 12 passed, 0 failed`,
  };
}
