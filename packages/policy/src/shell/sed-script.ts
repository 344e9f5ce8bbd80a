/**
 * What a sed script runs and writes, read command by command (GNU sed syntax): the `e` command and
 * the `s///e` flag run commands, `w`/`W` and the `s///w` flag write files. A script this reader
 * cannot follow (an unknown command, an unterminated `s`) is `unreadable`: the caller then assumes
 * the worst, since `sed` is on safe lists and a missed `e` would run a command unseen.
 */
export interface SedScriptEffects {
  executes: boolean;
  /** Files the script writes (`w FILE`, `s/a/b/w FILE`). */
  writes: string[];
  /** Every line is deleted (`d`, `1,$d`): `sed -i` then empties the file. */
  deletesAll: boolean;
  unreadable: boolean;
}

/** Commands that take no argument. */
const PLAIN = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
/** Commands whose argument runs to the end of the line (text, a file name, a command). */
const TO_END_OF_LINE = new Set(['a', 'i', 'c', 'r', 'R', 'w', 'W', 'e']);
/** Commands whose argument (a label, a number, a version) ends at `;` or the end of the line. */
const TO_SEMICOLON = new Set([':', 'b', 't', 'T', 'q', 'Q', 'l', 'L', 'v']);

class Reader {
  i = 0;
  constructor(readonly text: string) {}
  get c(): string | undefined {
    return this.text[this.i];
  }
  skip(chars: string): void {
    while (this.c !== undefined && chars.includes(this.c)) this.i += 1;
  }
  /** The rest of the line; a line ending in a backslash continues (`a\`). */
  restOfLine(): string {
    let out = '';
    while (this.c !== undefined && this.c !== '\n') {
      if (this.c === '\\' && this.text[this.i + 1] === '\n') {
        out += '\n';
        this.i += 2;
        continue;
      }
      out += this.c;
      this.i += 1;
    }
    return out;
  }
  /** Up to the next unescaped `delimiter` (outside a bracket expression); false if there is none. */
  until(delimiter: string): boolean {
    let inClass = false;
    while (this.c !== undefined) {
      const c = this.c;
      if (c === '\\') this.i += 2;
      else if (inClass) {
        if (c === ']') inClass = false;
        this.i += 1;
      } else if (c === '[') {
        inClass = true;
        this.i += 1;
        if (this.c === ']' || this.c === '^') this.i += 1;
      } else if (c === delimiter) {
        this.i += 1;
        return true;
      } else this.i += 1;
    }
    return false;
  }
}

/** An address: a line number (`1`, `0~2`), `$`, `/re/` or `\cREc`, with `I`/`M` flags; false if malformed. */
function address(r: Reader): boolean {
  if (r.c !== undefined && /[0-9]/.test(r.c)) {
    r.skip('0123456789');
    if (r.c === '~') {
      r.i += 1;
      r.skip('0123456789');
    }
  } else if (r.c === '$') r.i += 1;
  else if (r.c === '/' || r.c === '\\') {
    if (r.c === '\\') r.i += 1;
    const delimiter: string | undefined = r.text[r.i];
    r.i += 1;
    if (delimiter === undefined || delimiter === '\n' || !r.until(delimiter)) return false;
  } else return true;
  r.skip('IM');
  return true;
}

/** Reads a sed script (see SedScriptEffects). */
export function sedScriptEffects(script: string): SedScriptEffects {
  const effects: SedScriptEffects = { executes: false, writes: [], deletesAll: false, unreadable: false };
  const r = new Reader(script);
  const commands: string[] = [];
  let addressed = false;
  while (r.i < script.length) {
    r.skip(' \t\n;');
    if (r.c === undefined) break;
    if (r.c === '#') {
      r.restOfLine();
      continue;
    }
    if (r.c === '}') {
      r.i += 1;
      continue;
    }
    const start = r.i;
    if (!address(r)) return { ...effects, unreadable: true };
    if (r.c === ',') {
      r.i += 1;
      r.skip(' \t+~');
      if (!address(r)) return { ...effects, unreadable: true };
    }
    const addressText = script.slice(start, r.i).trim();
    if (addressText !== '' && addressText !== '1,$') addressed = true;
    r.skip(' \t!');
    const command = r.c;
    r.i += 1;
    if (command === undefined) return { ...effects, unreadable: true };
    commands.push(command);
    if (command === '{' || PLAIN.has(command)) continue;
    if (command === 's' || command === 'y') {
      const delimiter = r.c;
      r.i += 1;
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\' || !r.until(delimiter) || !r.until(delimiter))
        return { ...effects, unreadable: true };
      if (command === 'y') continue;
      // Flags: g, p, i/I, m/M, a number, e (execute), w FILE (write, to the end of the line).
      while (r.c !== undefined && /[gpiImM0-9e]/.test(r.c)) {
        if (r.c === 'e') effects.executes = true;
        r.i += 1;
      }
      if (r.c === 'w') {
        r.i += 1;
        r.skip(' \t');
        effects.writes.push(r.restOfLine());
      }
      continue;
    }
    if (TO_END_OF_LINE.has(command)) {
      r.skip(' \t');
      const argument = r.restOfLine();
      if (command === 'e') effects.executes = true;
      if (command === 'w' || command === 'W') effects.writes.push(argument);
      continue;
    }
    if (TO_SEMICOLON.has(command)) {
      while (r.c !== undefined && r.c !== ';' && r.c !== '\n' && r.c !== '}') r.i += 1;
      continue;
    }
    return { ...effects, unreadable: true };
  }
  effects.deletesAll = !addressed && commands.length === 1 && commands[0] === 'd';
  return effects;
}
