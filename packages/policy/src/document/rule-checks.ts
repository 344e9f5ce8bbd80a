import { FILE_TOOLS, HTTP_TOOL, MUTATING_TOOLS, SHELL_TOOL, toolMatches } from '../tool-names';

/** The tools each condition can apply to. */
const CONDITION_TOOLS: Record<string, readonly string[]> = {
  commands: [SHELL_TOOL],
  anyCommand: [SHELL_TOOL],
  destructive: [SHELL_TOOL],
  dynamic: [SHELL_TOOL],
  unparsable: [SHELL_TOOL],
  runsCode: [SHELL_TOOL],
  paths: [...FILE_TOOLS, HTTP_TOOL],
  hosts: [HTTP_TOOL],
  methods: [HTTP_TOOL],
  egress: [HTTP_TOOL],
  effect: MUTATING_TOOLS,
};

/**
 * Conditions whose tools the rule's `tool` pattern cannot match (`paths` on `shell`, say): such a
 * rule could never match, which is nearly always a mistake worth refusing at save time.
 */
export function conditionProblems(match: { tool: string | string[] } & Record<string, unknown>): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  for (const [field, tools] of Object.entries(CONDITION_TOOLS)) {
    if (match[field] === undefined) continue;
    if (tools.some((name) => toolMatches(match.tool, name))) continue;
    problems.push({ field, message: `"${field}" applies only to ${tools.join(', ')}, which the rule's tool pattern does not match` });
  }
  return problems;
}
