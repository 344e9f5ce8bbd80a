import type { RunConfig } from '../config/run-config';
import { DELEGATE, LOAD_TOOLS, oneLine, type ToolSpec } from '../config/tool-spec';
import type { ToolDefinition } from '../ports/model-port';
import { LOAD_SKILL } from '../skills/skill-schemas';

const loadToolsDefinition: ToolDefinition = {
  name: LOAD_TOOLS,
  description: 'Load the full definitions of tools listed in the system prompt so you can call them.',
  parameters: {
    type: 'object',
    properties: { names: { type: 'array', items: { type: 'string' }, description: 'Tool names to load' } },
    required: ['names'],
  },
};

const loadSkillDefinition: ToolDefinition = {
  name: LOAD_SKILL,
  description: 'Load a skill listed in the context: its instructions are added to the context and its files to the workspace.',
  parameters: {
    type: 'object',
    properties: { name: { type: 'string', description: 'The skill to load' } },
    required: ['name'],
  },
};

function definitionOf(spec: ToolSpec): ToolDefinition {
  return { name: spec.name, description: spec.description, parameters: spec.parameters };
}

function delegateDefinition(config: RunConfig): ToolDefinition {
  const targets = config.delegates.map((d) => (d.description ? `${d.to} (${oneLine(d.description, 80)})` : d.to));
  return {
    name: DELEGATE,
    description: `Hand a sub-task to another agent and wait for its final result. Targets: ${targets.join(', ')}.`,
    parameters: {
      type: 'object',
      properties: {
        to: { type: 'string', enum: config.delegates.map((d) => d.to) },
        goal: { type: 'string', description: 'What the other agent must achieve, self-contained' },
      },
      required: ['to', 'goal'],
    },
  };
}

/**
 * The tool definitions sent with a model call. Eager: the whole catalogue. On demand: `load_tools`
 * plus what was loaded, in load order, so the prompt only grows when the model asks for a tool.
 * `load_skill` comes last when any skill is offered (the config's or the seeded repository's).
 */
export function toolDefinitions(config: RunConfig, loaded: readonly string[], skillsOffered = (config.skills?.length ?? 0) > 0): ToolDefinition[] {
  const defs: ToolDefinition[] = [];
  if (config.toolLoading === 'eager') defs.push(...config.tools.map(definitionOf));
  else {
    if (config.tools.length > 0) defs.push(loadToolsDefinition);
    for (const name of loaded) {
      const spec = config.tools.find((t) => t.name === name);
      if (spec) defs.push(definitionOf(spec));
    }
  }
  if (config.delegates.length > 0) defs.push(delegateDefinition(config));
  if (skillsOffered) defs.push(loadSkillDefinition);
  return defs;
}

/** The index of the config's skills: names and one-liners only; `load_skill` brings the rest. */
function skillIndexText(config: RunConfig): string {
  const skills = config.skills ?? [];
  if (skills.length === 0) return '';
  const index = skills.map((s) => `- ${s.name}: ${oneLine(s.description)}`).join('\n');
  return `Skills available on request. Call ${LOAD_SKILL} with a name when its instructions would help.\n${index}`;
}

/** The system prompt, plus (on demand) the index of tool names and one-line descriptions, and of skills. */
export function systemText(config: RunConfig): string {
  const skills = skillIndexText(config);
  if (config.toolLoading === 'eager' || config.tools.length === 0) return [config.systemPrompt, skills].filter(Boolean).join('\n\n');
  const index = config.tools.map((t) => `- ${t.name}: ${oneLine(t.description)}`).join('\n');
  const header = `Tools available on request. Call ${LOAD_TOOLS} with the names you need; their full definitions are then provided.`;
  return [config.systemPrompt, `${header}\n${index}`, skills].filter(Boolean).join('\n\n');
}
