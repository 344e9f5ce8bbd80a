import type { ToolSpec } from '../config/tool-spec';
import type { JsonValue } from '../ports/tool-port';

type Prop = [name: string, type: string, description: string, required?: boolean];

function tool(name: string, description: string, idempotent: boolean, props: Prop[]): ToolSpec {
  const properties: Record<string, JsonValue> = {};
  for (const [n, type, d] of props) {
    properties[n] = type.endsWith('[]') ? { type: 'array', items: { type: type.slice(0, -2) }, description: d } : { type, description: d };
  }
  const required = props.filter((p) => p[3]).map((p) => p[0]);
  return { name, description, idempotent, parameters: { type: 'object', properties, required, additionalProperties: false } };
}

const PATH: Prop = ['path', 'string', 'Path relative to the workspace root. Absolute paths and .. segments are refused.', true];

/**
 * A realistic coding-agent catalogue (30 tools, descriptions with usage notes as real agents ship
 * them), used to measure what on-demand loading saves and by the benchmark.
 */
export function sampleCatalogue(): ToolSpec[] {
  return [
    tool(
      'read_file',
      'Read a text file from the workspace.\nReturns at most 2000 lines; use offset and limit to page through longer files. Binary files are refused.',
      true,
      [PATH, ['offset', 'integer', 'First line to read (1-based)'], ['limit', 'integer', 'Number of lines to read']],
    ),
    tool(
      'write_file',
      'Create or overwrite a file in the workspace.\nPrefer edit_file for changes to existing files; this replaces the whole content. Parent directories are created.',
      false,
      [PATH, ['content', 'string', 'The complete new file content', true]],
    ),
    tool(
      'edit_file',
      'Replace an exact string in a file.\nThe old string must occur exactly once unless replace_all is set; include enough surrounding context to make it unique. Whitespace matters.',
      false,
      [
        PATH,
        ['old_string', 'string', 'Exact text to replace', true],
        ['new_string', 'string', 'Replacement text', true],
        ['replace_all', 'boolean', 'Replace every occurrence'],
      ],
    ),
    tool('list_dir', 'List a directory of the workspace with file sizes.\nHidden files are included; .git is skipped.', true, [
      PATH,
      ['depth', 'integer', 'How many levels to descend (default 1)'],
    ]),
    tool('glob', 'Find files by glob pattern, newest first.\nSupports ** and brace expansion; limited to 500 results.', true, [
      ['pattern', 'string', 'Glob such as src/**/*.ts', true],
      ['cwd', 'string', 'Directory to search from'],
    ]),
    tool(
      'grep',
      'Search file contents with a regular expression (ripgrep syntax).\nReturns matching lines with file and line number; use glob to restrict files and context for surrounding lines.',
      true,
      [
        ['pattern', 'string', 'Regular expression', true],
        ['glob', 'string', 'File filter'],
        ['context', 'integer', 'Lines of context'],
        ['ignore_case', 'boolean', 'Case-insensitive search'],
      ],
    ),
    tool(
      'run_shell',
      'Run a shell command in the sandbox, in the workspace.\nNo network except through the egress proxy. Long-running commands are killed after the timeout. Commands are parsed and checked by policy before they run.',
      false,
      [
        ['command', 'string', 'The command line', true],
        ['timeout_ms', 'integer', 'Kill after this many milliseconds'],
        ['env', 'object', 'Extra environment variables (no secrets)'],
      ],
    ),
    tool('run_tests', 'Run the project test suite or a subset of it.\nDetects npm, pytest, go test or cargo; returns a summary and the first failures.', true, [
      ['filter', 'string', 'Test name or file filter'],
      ['update_snapshots', 'boolean', 'Update snapshots'],
    ]),
    tool('git_status', 'Show the working tree status of the workspace repository.', true, []),
    tool('git_diff', 'Show changes in the workspace.\nWithout arguments shows unstaged changes; staged shows the index; ref compares with a commit.', true, [
      ['ref', 'string', 'Commit or branch to compare with'],
      ['staged', 'boolean', 'Show staged changes'],
      ['path', 'string', 'Limit to a path'],
    ]),
    tool('git_log', 'Show recent commits with author, date and subject.', true, [
      ['limit', 'integer', 'Number of commits (default 20)'],
      ['path', 'string', 'Limit to a path'],
    ]),
    tool('git_commit', 'Stage all changes and commit them in the workspace repository.\nWrite a message that explains why; never commit secrets.', false, [
      ['message', 'string', 'Commit message', true],
    ]),
    tool('git_branch', 'Create or switch branches in the workspace repository.', false, [
      ['name', 'string', 'Branch name', true],
      ['create', 'boolean', 'Create it first'],
    ]),
    tool(
      'http_get',
      'Fetch a URL through the egress proxy and return the body as text.\nOnly hosts allowed by policy are reachable; HTML is converted to Markdown; bodies over 1 MB are truncated.',
      true,
      [
        ['url', 'string', 'Absolute http(s) URL', true],
        ['headers', 'object', 'Extra request headers'],
      ],
    ),
    tool(
      'http_post',
      'Send a POST request through the egress proxy.\nRequires an allowed host; credentials are injected by the proxy, never pass them here.',
      false,
      [
        ['url', 'string', 'Absolute http(s) URL', true],
        ['body', 'string', 'Request body', true],
        ['content_type', 'string', 'Content-Type header'],
      ],
    ),
    tool('web_search', 'Search the web and return titles, URLs and snippets of the top results.', true, [
      ['query', 'string', 'Search query', true],
      ['limit', 'integer', 'Number of results (max 10)'],
    ]),
    tool('open_pr', 'Open a pull request from the current branch.\nPushes the branch first. Requires approval by policy in most teams.', false, [
      ['title', 'string', 'PR title', true],
      ['body', 'string', 'PR description in Markdown', true],
      ['base', 'string', 'Target branch (default main)'],
      ['draft', 'boolean', 'Open as draft'],
    ]),
    tool('comment_issue', 'Post a comment on an issue or pull request of the tracker.', false, [
      ['issue', 'integer', 'Issue or PR number', true],
      ['body', 'string', 'Comment in Markdown', true],
    ]),
    tool('read_issue', 'Read an issue or pull request with its comments from the tracker.', true, [['issue', 'integer', 'Issue or PR number', true]]),
    tool('search_issues', 'Search issues and pull requests of the tracker.', true, [
      ['query', 'string', 'Search terms and qualifiers', true],
      ['state', 'string', 'open, closed or all'],
    ]),
    tool(
      'sql_query',
      'Run a read-only SQL query against the analytics replica.\nStatements other than SELECT are refused; results are limited to 200 rows.',
      true,
      [
        ['sql', 'string', 'A single SELECT statement', true],
        ['params', 'string[]', 'Positional parameters'],
      ],
    ),
    tool('create_ticket', 'Create a ticket in the team tracker with a title, description and labels.', false, [
      ['title', 'string', 'Ticket title', true],
      ['description', 'string', 'Ticket description', true],
      ['labels', 'string[]', 'Labels to apply'],
    ]),
    tool('send_message', 'Send a chat message to a channel.\nUse sparingly: humans read these.', false, [
      ['channel', 'string', 'Channel name', true],
      ['text', 'string', 'Message text', true],
    ]),
    tool('memory_read', 'Read a key from the run blackboard shared with other agents of the swarm.', true, [['key', 'string', 'Blackboard key', true]]),
    tool('memory_write', 'Write a key on the run blackboard; other agents with read scope see the new version.', false, [
      ['key', 'string', 'Blackboard key', true],
      ['value', 'string', 'JSON value', true],
    ]),
    tool('format_code', 'Run the project formatter on files (prettier, black, gofmt, rustfmt by detection).', true, [
      ['paths', 'string[]', 'Files to format', true],
    ]),
    tool('lint', 'Run the project linter and return findings with file, line and rule.', true, [
      ['paths', 'string[]', 'Files to lint'],
      ['fix', 'boolean', 'Apply automatic fixes'],
    ]),
    tool('typecheck', 'Run the type checker of the project and return errors with locations.', true, [['project', 'string', 'tsconfig or package to check']]),
    tool('install_package', 'Add a dependency with the project package manager at an exact version.', false, [
      ['name', 'string', 'Package name', true],
      ['version', 'string', 'Exact version', true],
      ['dev', 'boolean', 'Development dependency'],
    ]),
    tool('screenshot', 'Render a URL or local HTML file in a headless browser and return a PNG reference.', true, [
      ['url', 'string', 'URL or workspace path', true],
      ['width', 'integer', 'Viewport width'],
      ['height', 'integer', 'Viewport height'],
    ]),
  ];
}
