/** How the texts an event carries (a goal, a model's answer, a tool's output) are cut. */
export interface TextStyle {
  /** Keep line breaks (a terminal indents them); otherwise every run of whitespace with a break becomes one space. */
  multiline: boolean;
  /** At most this many characters of one text. */
  maxLength: number;
}

/** One line of at most 160 characters: the timeline's notices and the branch list. */
export const ONE_LINE: TextStyle = { multiline: false, maxLength: 160 };

/** A text cut to its style, saying how much was left out. */
export function cutText(text: string, style: TextStyle): string {
  const flat = style.multiline ? text.trimEnd() : text.replace(/\s*\n\s*/g, ' ').trim();
  if (flat.length <= style.maxLength) return flat;
  return style.multiline ? `${flat.slice(0, style.maxLength)}… (${flat.length - style.maxLength} more characters)` : `${flat.slice(0, style.maxLength - 1)}…`;
}

/** Dollars from micro-dollars, without trailing zeros: `$0.000018`. */
export function money(micros: number): string {
  return `$${(micros / 1_000_000).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}`;
}

/** "an approver", "a viewer": a role as a sentence reads it. */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** JSON of tool arguments on one line, cut like any text. */
export function argsText(args: unknown, style: TextStyle): string {
  return cutText(JSON.stringify(args ?? {}), { multiline: false, maxLength: style.maxLength });
}
