/** The built-in tools whose arguments the policy understands. */
export const SHELL_TOOL = 'shell';
export const HTTP_TOOL = 'http_request';
export const FILE_TOOLS = ['read_file', 'write_file', 'edit_file', 'list_files', 'search_files'] as const;
/** Tools that change the workspace: their effect is decided on their result. */
export const MUTATING_TOOLS = ['shell', 'write_file', 'edit_file'] as const;
/** The engine's own tool catalogue loader: it runs nothing, so every policy allows it. */
export const LOAD_TOOLS = 'load_tools';

/** Whether `name` is one of the file tools (their `path` argument is matched by `paths`). */
export function isFileTool(name: string): boolean {
  return (FILE_TOOLS as readonly string[]).includes(name);
}

const compiled = new Map<string, RegExp>();

/**
 * Whether a simple glob matches a whole name: `*` is any run of characters (colons included, so
 * `mcp:*` covers every MCP tool), `?` one character; everything else is literal.
 */
export function globMatches(pattern: string, name: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    const body = pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    regex = new RegExp(`^${body}$`, 's');
    compiled.set(pattern, regex);
  }
  return regex.test(name);
}

/** Whether a rule's `tool` field (one pattern or a list) matches `name`. */
export function toolMatches(tool: string | string[], name: string): boolean {
  return (Array.isArray(tool) ? tool : [tool]).some((pattern) => globMatches(pattern, name));
}
