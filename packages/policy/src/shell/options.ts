import type { ResolvedWord } from './words';

/** How a program's options are read: which take a value, which are plain flags. */
export interface OptionSpec {
  /** Short options taking a value (`-u root`, `-uroot`). */
  shortValue?: string;
  /** Short options that are plain flags. */
  shortFlags?: string;
  /** Short options whose value, if any, is attached (`sed -i.bak`): the rest of the word. */
  shortOptional?: string;
  /** Long options taking a value (`--user root`, `--user=root`). */
  longValue?: string[];
  /** Long options that are plain flags. */
  longFlags?: string[];
  /** `-10` style numeric options (nice). */
  numeric?: boolean;
}

/** One option read from argv: its name (`-u` or `--user`) and value when it takes one. */
interface ParsedOption {
  name: string;
  value: ResolvedWord | null;
}

/** Options up to the first operand, and where the operands start; `unknown` names the first option not in the spec. */
export interface ParsedOptions {
  options: ParsedOption[];
  operandIndex: number;
  unknown: string | null;
  nonStatic: ResolvedWord | null;
}

/**
 * Reads options from `words` (starting at `start`) the way getopt does, stopping at the first
 * operand or `--`. An option outside the spec stops the scan as `unknown`: guessing whether it
 * takes a value could mistake the value for the wrapped command.
 */
export function parseOptions(words: ResolvedWord[], start: number, spec: OptionSpec): ParsedOptions {
  const options: ParsedOption[] = [];
  let i = start;
  while (i < words.length) {
    const word = words[i] as ResolvedWord;
    if (!word.static) return { options, operandIndex: i, unknown: null, nonStatic: word };
    const text = word.text;
    if (text === '--') return { options, operandIndex: i + 1, unknown: null, nonStatic: null };
    if (!text.startsWith('-') || text === '-') break;
    if (text.startsWith('--')) {
      const [name, inline] = splitLong(text);
      if (spec.longValue?.includes(name)) {
        const value = inline ?? words[i + 1] ?? null;
        options.push({ name, value: typeof value === 'string' ? literal(value) : value });
        i += inline === undefined ? 2 : 1;
      } else if (spec.longFlags?.includes(name) || inline !== undefined) {
        // An unknown `--name=value` carries its value with it, so it cannot swallow the next word.
        options.push({ name, value: inline === undefined ? null : literal(inline) });
        i += 1;
      } else return { options, operandIndex: i, unknown: text, nonStatic: null };
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(text)) {
      options.push({ name: text, value: null });
      i += 1;
      continue;
    }
    let consumedNext = false;
    for (let c = 1; c < text.length; c++) {
      const letter = text[c] as string;
      if (spec.shortOptional?.includes(letter)) {
        const rest = text.slice(c + 1);
        options.push({ name: `-${letter}`, value: rest === '' ? null : literal(rest) });
        break;
      }
      if (spec.shortValue?.includes(letter)) {
        const rest = text.slice(c + 1);
        const value = rest !== '' ? literal(rest) : (words[i + 1] ?? null);
        consumedNext = rest === '';
        options.push({ name: `-${letter}`, value });
        break;
      }
      if (!spec.shortFlags?.includes(letter)) return { options, operandIndex: i, unknown: `-${letter}`, nonStatic: null };
      options.push({ name: `-${letter}`, value: null });
    }
    i += consumedNext ? 2 : 1;
  }
  return { options, operandIndex: i, unknown: null, nonStatic: null };
}

function splitLong(text: string): [string, string | undefined] {
  const eq = text.indexOf('=');
  return eq === -1 ? [text, undefined] : [text.slice(0, eq), text.slice(eq + 1)];
}

function literal(text: string): ResolvedWord {
  return { text, static: true, expands: false, source: text };
}

/** Whether any option in `parsed` has one of `names`. */
export function hasOption(parsed: ParsedOptions, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

/** The value of the last option with one of `names`. */
export function optionValue(parsed: ParsedOptions, ...names: string[]): ResolvedWord | null {
  const found = parsed.options.filter((option) => names.includes(option.name));
  return found.at(-1)?.value ?? null;
}
