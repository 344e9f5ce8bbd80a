/**
 * A string as a SQL literal, exactly as node-postgres's `escapeLiteral` writes it (quotes doubled;
 * with a backslash, backslashes doubled and the ` E'…'` form), but in native passes: the driver's
 * loop builds the result a character at a time, which for the large JSON literals of the worker's
 * one-round-trip statements (a policy audit batch is hundreds of kilobytes) makes a garbage
 * string per character.
 */
export function quoteLiteral(value: string): string {
  const quoted = `'${value.replaceAll("'", "''")}'`;
  return value.includes('\\') ? ` E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}
