import { describeEvent, type ClientEvent, type TextStyle } from '@looplane/events';

/** Texts in a terminal: line breaks kept (indented under the line), at most 2,000 characters each. */
const TERMINAL: TextStyle = { multiline: true, maxLength: 2000 };
/** The longest label ("Delegation returned"), so summaries line up. */
const LABEL_WIDTH = 19;

/**
 * One event as a line a person reads in a terminal, from the shared decoder's label and summary,
 * or null for the bookkeeping it marks quiet (streamed deltas, ledger rows, allowed calls);
 * `--json` prints everything raw instead.
 */
export function formatEvent(event: ClientEvent): string | null {
  const { label, summary, quiet } = describeEvent(event, TERMINAL);
  if (quiet) return null;
  return `${event.createdAt.slice(11, 19)} #${event.eventNo} ${label.padEnd(LABEL_WIDTH)} ${summary.replace(/\n/g, '\n    ')}`;
}
