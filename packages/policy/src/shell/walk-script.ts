import { resolvePath } from '../workspace-paths';
import { printsNothing, readsTruncatedFile } from './empty-output';
import { type Frame, type ScanState, type Stdin, destructive, dynamic } from './scan-state';
import { checkAssignment } from './variables';
import { Op, type SyntaxNode, child, children, sourceOf } from './syntax-tree';
import { type ResolvedWord, resolveWord, unescapeDouble } from './words';
import { checkWritePath, recordEmptied } from './write-targets';

/**
 * Walks a parsed script statement by statement, keeping what a command needs to be judged: its
 * nesting depth and where its standard input comes from (a pipe, a heredoc, a file). Every
 * command substitution, process substitution and expansion is descended into, so a command
 * hidden anywhere in a word is classified too.
 */
export function walkStatements(stmts: SyntaxNode[], frame: Frame, state: ScanState): void {
  stmts.forEach((stmt, index) => {
    // `a & b` separates with `&` alone; any other pair of statements is `;` (or a newline).
    if (index > 0 && !stmts[index - 1]?.Background) state.operators.push(';');
    visitStmt(stmt, frame, state);
  });
}

const BINARY_OPS: Record<number, string> = { [Op.and]: '&&', [Op.or]: '||', [Op.pipe]: '|', [Op.pipeAll]: '|&' };
const REDIRECT_OPS: Record<number, string> = {
  [Op.redirOut]: '>',
  [Op.appOut]: '>>',
  [Op.redirIn]: '<',
  [Op.rdrInOut]: '<>',
  [Op.dplIn]: '<&',
  [Op.dplOut]: '>&',
  [Op.clbOut]: '>|',
  [Op.hdoc]: '<<',
  [Op.dashHdoc]: '<<-',
  [Op.wordHdoc]: '<<<',
  [Op.rdrAll]: '&>',
  [Op.appAll]: '&>>',
};
const WRITES = new Set<number>([Op.redirOut, Op.appOut, Op.clbOut, Op.rdrAll, Op.appAll, Op.rdrInOut]);

/** Redirections that truncate their target before the command writes to it. */
const TRUNCATES = new Set<number>([Op.redirOut, Op.clbOut, Op.rdrAll]);

function visitStmt(stmt: SyntaxNode, frame: Frame, state: ScanState): void {
  if (stmt.Coprocess) state.features.add('coprocess');
  let stdin = frame.stdin;
  const truncated: Truncated[] = [];
  for (const redirect of children(stmt, 'Redirs')) {
    const result = visitRedirect(redirect, frame, state);
    stdin = result.stdin ?? stdin;
    if (result.truncated) truncated.push(result.truncated);
  }
  const cmd = child(stmt, 'Cmd');
  if (truncated.length > 0) checkTruncated(truncated, simpleWords(cmd, frame.bytes), stdin, state);
  if (cmd) visitCommand(cmd, { ...frame, stdin }, state);
  if (stmt.Background) {
    state.operators.push('&');
    state.features.add('background');
  }
}

/**
 * A truncating redirect empties its file when the command writes nothing into it (`> f`, `: > f`,
 * `cat /dev/null > f`) or reads the same file (`sort f > f`: the shell truncates f first).
 */
function checkTruncated(truncated: Truncated[], words: ResolvedWord[] | null, stdin: Stdin, state: ScanState): void {
  const silent = printsNothing(words, stdin);
  const at = (path: string) => resolvePath(path, state.cwd, state.root).absolute;
  const same = (a: string, b: string) => at(a) !== null && at(a) === at(b);
  for (const { path, label } of truncated) {
    if (silent) recordEmptied(state, 'workspace', path, label);
    else if (readsTruncatedFile(words, stdin, path, same)) destructive(state, label, `empties ${path} before the command reads it, losing what it held`);
  }
}

/** The words of a simple command ([] for none or an assignment only); null for a compound command. */
function simpleWords(cmd: SyntaxNode | null, bytes: Uint8Array): ResolvedWord[] | null {
  if (!cmd) return [];
  if (cmd.type !== 'CallExpr') return null;
  return children(cmd, 'Args').map((arg) => resolveWord(arg, bytes));
}

/** A workspace file a truncating redirection opens. */
interface Truncated {
  path: string;
  label: string;
}

/** What a redirection gives the command: a new stdin, and a workspace file it truncates. */
interface RedirectResult {
  stdin?: Stdin;
  truncated?: Truncated;
}

/** Records a redirection and judges a written target. */
function visitRedirect(redirect: SyntaxNode, frame: Frame, state: ScanState): RedirectResult {
  const op = Number(redirect.Op);
  const word = child(redirect, 'Word');
  const hdoc = child(redirect, 'Hdoc');
  scanNode(word, frame, state);
  scanNode(hdoc, frame, state);
  const target = word ? resolveWord(word, frame.bytes) : null;
  const opText = REDIRECT_OPS[op] ?? `op${op}`;
  const label = `${opText} ${target?.source ?? ''}`.trim();
  if (op === Op.hdoc || op === Op.dashHdoc) {
    state.features.add('heredoc');
    state.redirects.push({ op: opText, target: null });
    return { stdin: { kind: 'text', text: hdoc ? heredocText(hdoc, word, frame.bytes) : '' } };
  }
  state.redirects.push({ op: opText, target: target?.static ? target.text : null });
  if (!target) return {};
  if (op === Op.wordHdoc) return { stdin: { kind: 'text', text: target.static ? `${target.text}\n` : null } };
  // `2>&1`, `>&-`: duplicating or closing a descriptor writes nothing new.
  if ((op === Op.dplOut || op === Op.dplIn) && target.static && /^(\d+-?|-)$/.test(target.text)) return {};
  const result: RedirectResult = {};
  if (WRITES.has(op) || op === Op.dplOut) {
    const where = checkWritePath(state, target, label);
    if (where === 'workspace' && (TRUNCATES.has(op) || op === Op.dplOut)) result.truncated = { path: target.text, label };
  }
  if (op === Op.redirIn || op === Op.rdrInOut || op === Op.dplIn) result.stdin = { kind: 'file', path: target.static ? target.text : null };
  return result;
}

/** A heredoc body as the command reads it, or null when it expands something at run time. */
function heredocText(hdoc: SyntaxNode, delimiter: SyntaxNode | null, bytes: Uint8Array): string | null {
  const parts = children(hdoc, 'Parts');
  if (!parts.every((part) => part.type === 'Lit')) return null;
  const raw = parts.map((part) => String(part.Value ?? '')).join('');
  // A quoted delimiter (`<<'EOF'`) keeps the body verbatim; otherwise backslashes work as in "...".
  const quoted = delimiter ? /['"\\]/.test(sourceOf(bytes, delimiter)) : false;
  return quoted ? raw : unescapeDouble(raw, '');
}

function visitCommand(cmd: SyntaxNode, frame: Frame, state: ScanState): void {
  switch (cmd.type) {
    case 'CallExpr': {
      const args = children(cmd, 'Args');
      // `HOME=/x git status` sets HOME for git only; a bare `HOME=/x` for what follows.
      for (const assign of children(cmd, 'Assigns')) visitAssign(assign, frame, state, args.length > 0 ? 'the command' : 'later commands');
      for (const arg of args) scanNode(arg, frame, state);
      if (args.length > 0)
        state.classify(
          args.map((arg) => resolveWord(arg, frame.bytes)),
          frame,
          [],
        );
      return;
    }
    case 'BinaryCmd': {
      const op = BINARY_OPS[Number(cmd.Op)] ?? `op${String(cmd.Op)}`;
      state.features.add(op.startsWith('|') && op !== '||' ? 'pipe' : 'list');
      const [x, y] = [child(cmd, 'X'), child(cmd, 'Y')];
      if (x) visitStmt(x, frame, state);
      state.operators.push(op);
      // The right side of a pipe reads what the left side prints.
      if (y) visitStmt(y, op === '|' || op === '|&' ? { ...frame, stdin: { kind: 'pipe' } } : frame, state);
      return;
    }
    case 'Subshell':
    case 'Block':
      if (cmd.type === 'Subshell') state.features.add('subshell');
      walkStatements(children(cmd, 'Stmts'), frame, state);
      return;
    case 'IfClause':
      state.features.add('conditional');
      walkStatements(children(cmd, 'Cond'), frame, state);
      walkStatements(children(cmd, 'Then'), frame, state);
      if (child(cmd, 'Else')) visitCommand(child(cmd, 'Else') as SyntaxNode, frame, state);
      return;
    case 'WhileClause':
      state.features.add('loop');
      walkStatements(children(cmd, 'Cond'), frame, state);
      walkStatements(children(cmd, 'Do'), frame, state);
      return;
    case 'ForClause':
      state.features.add('loop');
      scanNode(child(cmd, 'Loop'), frame, state);
      walkStatements(children(cmd, 'Do'), frame, state);
      return;
    case 'CaseClause':
      state.features.add('conditional');
      scanNode(child(cmd, 'Word'), frame, state);
      for (const item of children(cmd, 'Items')) {
        scanNode(children(item, 'Patterns'), frame, state);
        walkStatements(children(item, 'Stmts'), frame, state);
      }
      return;
    case 'FuncDecl':
      state.features.add('function');
      if (child(cmd, 'Body')) visitStmt(child(cmd, 'Body') as SyntaxNode, frame, state);
      return;
    case 'TimeClause':
    case 'CoprocClause':
      if (child(cmd, 'Stmt')) visitStmt(child(cmd, 'Stmt') as SyntaxNode, frame, state);
      return;
    case 'DeclClause':
      for (const arg of children(cmd, 'Args')) {
        // `export "$NAME=..."` can assign any variable, PATH included.
        const value = child(arg, 'Value');
        if (arg.Naked && value && !resolveWord(value, frame.bytes).static) {
          dynamic(state, sourceOf(frame.bytes, cmd), 'declares a variable whose name is not static');
        }
      }
      scanNode(children(cmd, 'Args'), frame, state);
      return;
    case 'ArithmCmd': {
      // bash reads `((...))` as arithmetic, but dash (a common /bin/sh) reads it as two nested
      // subshells and runs what is inside: classify the inside as commands too.
      state.features.add('arithmetic');
      scanNode(cmd, frame, state, true);
      const text = sourceOf(frame.bytes, cmd);
      state.nested(text.replace(/^\(\(/, '').replace(/\)\)$/, ''), frame, text);
      return;
    }
    case 'LetClause':
    case 'TestClause':
      scanNode(cmd, frame, state, true);
      return;
    default:
      dynamic(state, sourceOf(frame.bytes, cmd), `uses a construct the analysis does not model (${cmd.type})`);
      scanNode(cmd, frame, state, true);
  }
}

/**
 * Descends into any part of the tree that is not a statement list, finding what runs inside it:
 * command and process substitutions, expansions holding them, and assignments.
 */
function scanNode(node: unknown, frame: Frame, state: ScanState, isRoot = false): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) scanNode(item, frame, state);
    return;
  }
  const n = node as SyntaxNode;
  const nested = { ...frame, depth: frame.depth + 1 };
  switch (isRoot ? '' : n.type) {
    case 'CmdSubst':
      state.features.add('command-substitution');
      walkStatements(children(n, 'Stmts'), nested, state);
      return;
    case 'ProcSubst':
      state.features.add('process-substitution');
      // `>(cmd)` reads what the outer command writes into it, like the right side of a pipe.
      walkStatements(children(n, 'Stmts'), Number(n.Op) === Op.procOut ? { ...nested, stdin: { kind: 'pipe' } } : nested, state);
      return;
    case 'Stmt':
      visitStmt(n, frame, state);
      return;
    case 'ParamExp':
      state.features.add('expansion');
      break;
    case 'ArithmExp':
      state.features.add('arithmetic');
      break;
    case 'Assign':
      visitAssign(n, frame, state, 'later commands');
      return;
  }
  scanChildren(n, frame, state);
}

function scanChildren(n: SyntaxNode, frame: Frame, state: ScanState): void {
  for (const key of Object.keys(n)) {
    if (key !== 'type' && key !== 'pos' && key !== 'end') scanNode(n[key], frame, state);
  }
}

/** An assignment: what the variable changes, then whatever runs inside its value. */
function visitAssign(assign: SyntaxNode, frame: Frame, state: ScanState, scope: 'the command' | 'later commands'): void {
  const name = child(assign, 'Name');
  if (name) checkAssignment(state, String(name.Value), sourceOf(frame.bytes, assign), scope);
  scanChildren(assign, frame, state);
}
