import picomatch from 'picomatch';
import type { PolicyDocument, Rule, RuleMatch } from '../document/policy-schema';
import { hostAllowed } from '../hosts';
import type { ShellAnalysis, ShellCommand } from '../shell/analysis-types';
import { globMatches, toolMatches } from '../tool-names';
import type { PreparedCall } from './prepare-call';

/** Whether a rule matched, and a sentence saying why (or what failed first) for the simulator. */
export interface RuleMatchResult {
  matched: boolean;
  explanation: string;
}

type Check = { ok: true; note?: string } | { ok: false; why: string };
const pass = (note?: string): Check => ({ ok: true, note });
const fail = (why: string): Check => ({ ok: false, why });

/** `git status` matches argv `git status -s`: the first word by program name, the rest word by word (globs allowed). */
function commandMatches(entry: string, command: ShellCommand): boolean {
  const words = entry.trim().split(/\s+/);
  if (command.name === null || !globMatches(words[0] as string, command.name)) return false;
  return words.slice(1).every((word, i) => command.argv[i + 1] !== undefined && globMatches(word, command.argv[i + 1] as string));
}

const FLAGS = [
  ['unparsable', (a: ShellAnalysis) => a.unparsable !== null, 'unparsable'],
  ['dynamic', (a: ShellAnalysis) => a.dynamic.length > 0, 'unclassifiable (not static)'],
  ['destructive', (a: ShellAnalysis) => a.destructive.length > 0, 'destructive'],
  ['runsCode', (a: ShellAnalysis) => a.runsCode.length > 0, 'running code the analysis cannot read (runsCode)'],
] as const;

function shellChecks(match: RuleMatch, rule: Rule, analysis: ShellAnalysis): Check {
  for (const [field, test, words] of FLAGS) {
    const actual = test(analysis);
    const wanted = match[field];
    if (wanted === undefined) {
      // An allow rule must opt in to allowing what it cannot vouch for.
      // (An effect rule is decided on what the call did, so it needs no such opt-in.)
      if (rule.outcome === 'allow' && actual && !rule.match.effect)
        return fail(`the line is ${words}, and an allow rule matches that only with ${field}: true`);
      continue;
    }
    if (wanted !== actual) return fail(`the line is ${actual ? '' : 'not '}${words}`);
  }
  const known = analysis.unparsable === null;
  if (match.commands) {
    if (!known) return fail('the commands of an unparsable line are not known');
    const outside = analysis.commands.find((command) => !match.commands?.some((entry) => commandMatches(entry, command)));
    if (outside) return fail(`${outside.name ?? outside.argv[0] ?? 'a command'} is not in commands`);
  }
  if (match.anyCommand) {
    const hit = known ? analysis.commands.find((command) => match.anyCommand?.some((entry) => commandMatches(entry, command))) : undefined;
    if (!hit) return fail('no command is in anyCommand');
    return pass(`${hit.name} is in anyCommand`);
  }
  return pass(match.commands ? 'every command is in commands' : undefined);
}

const pathMatchers = new Map<string, (path: string) => boolean>();

/** A compiled path glob (dot files included: `**` must cover `.env` too). */
function pathGlob(pattern: string): (path: string) => boolean {
  let matcher = pathMatchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true });
    pathMatchers.set(pattern, matcher);
  }
  return matcher;
}

/** `paths` for an http_request: globs over the URL path (`/api/**`), `!` excludes. */
function urlPathChecks(paths: string[], target: NonNullable<PreparedCall['target']>): Check {
  if (!target.ok) return fail(target.problem);
  if (target.path === null) return fail('the URL path is not known');
  const path = target.path;
  const test = (patterns: string[]) => patterns.some((p) => pathGlob(p)(path));
  if (!test(paths.filter((p) => !p.startsWith('!')))) return fail(`${path} matches no path pattern`);
  if (test(paths.filter((p) => p.startsWith('!')).map((p) => p.slice(1)))) return fail(`${path} is excluded by a "!" pattern`);
  return pass(`${path} matches paths`);
}

function pathChecks(match: RuleMatch, prepared: PreparedCall): Check {
  if (!match.paths) return pass();
  if (prepared.target) return urlPathChecks(match.paths, prepared.target);
  const path = prepared.path;
  if (!path) return fail('paths applies to file tools and http_request only');
  if (!path.ok) return fail(path.problem);
  if (path.relative === null) return fail(`${path.given} is outside the workspace`);
  const positive = match.paths.filter((p) => !p.startsWith('!'));
  const negative = match.paths.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  // The workspace root itself is '' here; only `**` (everything) covers it.
  const test = (patterns: string[]) => patterns.some((p) => (path.relative === '' ? p === '**' : pathGlob(p)(path.relative as string)));
  const shown = path.relative === '' ? '(the workspace root)' : path.relative;
  if (!test(positive)) return fail(`${shown} matches no path pattern`);
  if (negative.length > 0 && test(negative)) return fail(`${shown} is excluded by a "!" pattern`);
  return pass(`${shown} matches paths`);
}

function httpChecks(match: RuleMatch, prepared: PreparedCall, document: PolicyDocument): Check {
  if (match.hosts === undefined && match.methods === undefined && match.egress === undefined) return pass();
  const target = prepared.target;
  if (!target) return fail('hosts, methods and egress apply to http_request only');
  if (!target.ok) return fail(target.problem);
  const where = `${target.host}:${target.port}`;
  if (match.hosts && !hostAllowed(match.hosts, target.host, target.port)) return fail(`${where} is not in hosts`);
  if (match.methods && !match.methods.some((m) => m.toUpperCase() === target.method)) return fail(`method ${target.method} is not in methods`);
  if (match.egress !== undefined && hostAllowed(document.egress.allow, target.host, target.port) !== match.egress) {
    return fail(`${where} is ${match.egress ? 'not ' : ''}in the egress allowlist`);
  }
  return pass(`${where} passes the host conditions`);
}

function argChecks(match: RuleMatch, prepared: PreparedCall): Check {
  for (const [key, patterns] of Object.entries(match.args ?? {})) {
    const value = prepared.call.args?.[key];
    if (typeof value !== 'string') return fail(`argument ${key} is not a string`);
    if (!(Array.isArray(patterns) ? patterns : [patterns]).some((p) => globMatches(p, value))) return fail(`argument ${key} does not match`);
  }
  return pass();
}

/** Tries one rule against a prepared call. All conditions must hold; the first that fails is reported. */
export function matchRule(rule: Rule, prepared: PreparedCall, document: PolicyDocument): RuleMatchResult {
  const { match } = rule;
  const tool = prepared.call.tool;
  if (!toolMatches(match.tool, tool)) return { matched: false, explanation: `tool ${tool} does not match ${JSON.stringify(match.tool)}` };
  const checks: Check[] = [];
  if (prepared.shell) checks.push(shellChecks(match, rule, prepared.shell));
  else if (
    match.commands ||
    match.anyCommand ||
    match.destructive !== undefined ||
    match.dynamic !== undefined ||
    match.unparsable !== undefined ||
    match.runsCode !== undefined
  ) {
    checks.push(fail('shell conditions apply to the shell tool only'));
  }
  checks.push(pathChecks(match, prepared), httpChecks(match, prepared, document), argChecks(match, prepared));
  const failed = checks.find((check): check is { ok: false; why: string } => !check.ok);
  if (failed) return { matched: false, explanation: failed.why };
  const notes = checks.map((check) => (check.ok ? check.note : undefined)).filter(Boolean);
  return { matched: true, explanation: notes.length > 0 ? `matched: ${notes.join('; ')}` : `matched: tool ${tool}` };
}
