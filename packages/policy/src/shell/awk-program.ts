/**
 * What an awk program hands to the shell or writes, read from its tokens: the command strings of
 * `system(...)`, `print | CMD`, `CMD | getline`, and the files of `print > FILE`. A command or file
 * that is one string literal is returned for analysis; anything built at run time (concatenation,
 * a variable, `@indirect()` calls) is reported as hidden. Not an awk parser: only what these
 * constructs need is told apart (strings, regular expressions, comments, parentheses).
 */
export interface AwkProgramEffects {
  /** Command lines given as string literals (`system(...)`, `CMD | getline`). */
  commands: string[];
  /** Command lines that read the program's output (`print | CMD`). */
  pipedCommands: string[];
  /** Files written, given as string literals. */
  writes: string[];
  /** A command or an indirect call is built at run time. */
  hiddenCommand: boolean;
  /** A written file's name is built at run time. */
  hiddenWrite: boolean;
  /** `@include`/`@load`: code from another file. */
  loads: string[];
}

type Token = { kind: 'string'; value: string } | { kind: 'name'; value: string } | { kind: 'op'; value: string } | { kind: 'other' };

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', '/': '/', a: '\x07', b: '\b', f: '\f', v: '\v' };

/** A regular expression may start where an operand is expected, i.e. not after a value. */
function regexAllowed(previous: Token | undefined): boolean {
  if (!previous) return true;
  if (previous.kind === 'string' || previous.kind === 'other') return false;
  if (previous.kind === 'name') return ['print', 'printf', 'return', 'in', 'case'].includes(previous.value);
  return previous.value !== ')' && previous.value !== ']' && previous.value !== '$';
}

function tokenize(source: string): Token[] {
  const text = source.replace(/\\\n/g, '');
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n' || c === ';') {
      tokens.push({ kind: 'op', value: ';' });
      i += 1;
    } else if (/\s/.test(c)) i += 1;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i += 1;
    else if (c === '"') {
      let value = '';
      i += 1;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) {
          const next = text[i + 1] as string;
          value += ESCAPES[next] ?? `\\${next}`;
          i += 2;
        } else value += text[i++];
      }
      i += 1;
      tokens.push({ kind: 'string', value });
    } else if (c === '/' && regexAllowed(tokens.at(-1))) {
      i += 1;
      let inClass = false;
      while (i < text.length && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i += 1;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i += 1;
      }
      i += 1;
      tokens.push({ kind: 'other' });
    } else if (/[A-Za-z_]/.test(c)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))?.[0] as string;
      tokens.push({ kind: 'name', value: name });
      i += name.length;
    } else if (/[0-9.]/.test(c)) {
      i += /^[0-9.]+([eE][-+]?[0-9]+)?/.exec(text.slice(i))?.[0].length ?? 1;
      tokens.push({ kind: 'other' });
    } else {
      const op = /^(\|\||\|&|&&|>>|::|[<>!=]=|.)/s.exec(text.slice(i))?.[0] as string;
      tokens.push({ kind: 'op', value: op });
      i += op.length;
    }
  }
  return tokens;
}

const isOp = (token: Token | undefined, ...values: string[]) => token?.kind === 'op' && values.includes(token.value);
/** Tokens that end an expression at parenthesis depth 0. */
const ENDS = [';', '{', '}'];

/** The tokens from `start` up to the end of the expression (a `;`, a brace, or the closing parenthesis). */
function expressionAt(tokens: Token[], start: number, stopAt: string[] = []): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (depth === 0 && (isOp(token, ...ENDS, ...stopAt) || isOp(token, ')'))) break;
    if (isOp(token, '(')) depth += 1;
    if (isOp(token, ')')) depth -= 1;
    out.push(token);
  }
  return out;
}

/** The value of an expression that is exactly one string literal, else null. */
function literal(expression: Token[]): string | null {
  const only = expression[0];
  return expression.length === 1 && only?.kind === 'string' ? only.value : null;
}

/** Reads what the program runs and writes (see AwkProgramEffects). */
export function awkProgramEffects(source: string): AwkProgramEffects {
  const tokens = tokenize(source);
  const effects: AwkProgramEffects = { commands: [], pipedCommands: [], writes: [], hiddenCommand: false, hiddenWrite: false, loads: [] };
  const command = (expression: Token[], piped = false) => {
    const value = literal(expression);
    if (value === null) effects.hiddenCommand = true;
    else (piped ? effects.pipedCommands : effects.commands).push(value);
  };
  tokens.forEach((token, i) => {
    const next = tokens[i + 1];
    if (token.kind === 'name' && token.value === 'system' && isOp(next, '(')) command(expressionAt(tokens, i + 2));
    if (isOp(token, '@') && next?.kind === 'name') {
      if (next.value === 'include' || next.value === 'load') effects.loads.push(literal(tokens.slice(i + 2, i + 3)) ?? '(a name built at run time)');
      else if (next.value !== 'namespace') effects.hiddenCommand = true;
    }
    if (isOp(token, '|', '|&')) {
      if (next?.kind === 'name' && next.value === 'getline') {
        // `"cmd" | getline`: the command is the operand just before the pipe.
        const before = tokens[i - 1];
        const boundary = tokens[i - 2];
        const alone = boundary === undefined || isOp(boundary, ...ENDS, '(', ',', '=', '&&', '||', '!');
        command(before?.kind === 'string' && alone ? [before] : []);
      } else command(expressionAt(tokens, i + 1, ['|', '>', '>>']), true);
    }
    if (token.kind === 'name' && (token.value === 'print' || token.value === 'printf')) {
      // `print ... > FILE` at depth 0 of the statement redirects; inside parentheses `>` compares.
      let depth = 0;
      for (let j = i + 1; j < tokens.length; j++) {
        const t = tokens[j] as Token;
        if (depth === 0 && (isOp(t, ...ENDS, '|', '|&') || (t.kind === 'name' && ['if', 'else', 'while', 'for'].includes(t.value)))) break;
        if (isOp(t, '(')) depth += 1;
        if (isOp(t, ')')) depth -= 1;
        if (depth === 0 && isOp(t, '>', '>>')) {
          const file = literal(expressionAt(tokens, j + 1));
          if (file === null) effects.hiddenWrite = true;
          else effects.writes.push(file);
          break;
        }
      }
    }
  });
  return effects;
}
