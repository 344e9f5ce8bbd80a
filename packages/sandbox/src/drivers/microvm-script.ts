/** A single-quoted shell word: the guest's /bin/sh (the host's dash) reads it back byte for byte. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The script the guest's /bin/sh runs for one call: the environment (the agent starts the shell
 * with an empty one), the working directory, then the command itself by `exec`, so its exit
 * status is the call's (127 for a program that is not found, as everywhere else). The agent hands
 * the script over on fd 9, closed first so the command never sees it.
 */
export function microvmCallScript(argv: string[], env: Record<string, string>, cwd: string): string {
  if (argv.length === 0) throw new Error('argv must not be empty');
  const lines = ['exec 9<&-'];
  for (const [name, value] of Object.entries(env)) lines.push(`export ${name}=${quote(value)}`);
  lines.push(`cd -- ${quote(cwd)} || exit 1`, `exec ${argv.map(quote).join(' ')}`);
  return `${lines.join('\n')}\n`;
}
