import type { ShellAnalysis } from './analysis-types';

/**
 * Calls that delete, truncate or overwrite files, in the languages a line commonly runs inline
 * (Python, JavaScript, Perl, Ruby) and in a shell command run from inside that code. Finding one
 * does not decide anything: the effect check does, after the call. It rates the call's risk, so a
 * simulator or an approver reading `python3 -c "shutil.rmtree('/')"` is not told it is harmless.
 */
const DESTRUCTIVE_CODE: [RegExp, string][] = [
  [/\bshutil\s*\.\s*(rmtree|move)\b/, 'shutil.$1'],
  [/\bos\s*\.\s*(remove|unlink|rmdir|removedirs|truncate|ftruncate|replace|rename)\b/, 'os.$1'],
  [/\.\s*(unlink|rmdir|write_text|write_bytes)\s*\(/, '.$1()'],
  [/\b(rmSync|rmdirSync|unlinkSync|truncateSync|ftruncateSync|writeFileSync|renameSync)\b/, 'fs.$1'],
  [/\bfs(?:\/promises|\.promises)?\s*\.\s*(rm|rmdir|unlink|truncate|writeFile|rename)\s*\(/, 'fs.$1'],
  [/\bFileUtils\s*\.\s*(rm\w*|remove\w*)\b/, 'FileUtils.$1'],
  [/\bFile\s*\.\s*(delete|unlink|truncate)\b/, 'File.$1'],
  [/\b(unlink|rmtree|truncate)\s*[("']/, '$1'],
  [/\bopen\s*\([^)]*,\s*['"][wx]\+?b?['"]/, "open(…, 'w')"],
  [/\brm\s+-[a-zA-Z]*[rRf]/, 'rm -r/-f'],
];

/** The first destructive call found in the code a line runs, or null (also when it runs none). */
export function destructiveCode(analysis: ShellAnalysis): string | null {
  if (analysis.runsCode.length === 0) return null;
  for (const [pattern, name] of DESTRUCTIVE_CODE) {
    const match = pattern.exec(analysis.input);
    if (match) return name.replace('$1', match[1] ?? '');
  }
  return null;
}
