/**
 * One data layer (#31): every statement that touches a table lives in `packages/db`. Outside it, a
 * source file may use Prisma's typed calls, never SQL text, Prisma's raw escapes or a `pg` query.
 * Tests and test harnesses may set up what they need with SQL; they never ship.
 */

export interface SqlFinding {
  line: number;
  what: string;
}

const PATTERNS: { re: RegExp; what: string }[] = [
  { re: /\$(queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)\b/, what: "Prisma's raw SQL" },
  { re: /\.query\(\s*(['"`]|\{\s*name\s*:|\{\s*text\s*:)/, what: 'a pg query with its text' },
  { re: /\b[A-Z][A-Z0-9_]*_SQL\s*=\s*['"`]|\bnamedQuery\(/, what: 'a SQL text constant' },
  {
    re: /\b(SELECT\s[^\n;]*?\bFROM\s+\\?["a-z_(]|SELECT\s+(1|count|now|pg_|set_config|nextval)\b|INSERT\s+INTO\b|UPDATE\s+\\?"?[A-Za-z_]+\\?"?\s+(SET|[a-z]+\s+SET)\b|DELETE\s+FROM\b|ON\s+CONFLICT\b|CREATE\s+(TABLE|DATABASE|SCHEMA|INDEX|EXTENSION|ROLE)\b|ALTER\s+(TABLE|DATABASE|ROLE)\b|DROP\s+(TABLE|DATABASE|SCHEMA)\b|FOR\s+(NO\s+KEY\s+)?UPDATE\b|TRUNCATE\s+"?[A-Za-z_]|WITH\s+[a-z_]+\s+AS\s+\()/,
    what: 'SQL text',
  },
];

/** The source with comments blanked (line numbers kept): a comment may describe a statement. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

/** Where `source` holds SQL or runs a raw statement. */
export function sqlFindings(source: string): SqlFinding[] {
  const findings: SqlFinding[] = [];
  withoutComments(source)
    .split('\n')
    .forEach((text, i) => {
      for (const { re, what } of PATTERNS) if (re.test(text)) findings.push({ line: i + 1, what });
    });
  return findings;
}

/** A file the rule applies to: shipped source outside packages/db (tests and harnesses set up with SQL). */
export function holdsNoSql(workspaceName: string, path: string): boolean {
  if (workspaceName === '@looplane/db' || workspaceName === '@looplane/testkit') return false;
  return !/\.(test|int\.test|spec)\.tsx?$/.test(path) && !/[/\\](testing|fault|bench)[/\\]/.test(path) && !/[/\\]test-[^/\\]*$/.test(path);
}
