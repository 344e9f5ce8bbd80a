import type { ModelRequest } from '../ports/model-port';
import type { ContextItem } from '../state/run-state';

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A summary item's own text, without the header the context adds. */
function summaryBody(item: ContextItem): string {
  const content = item.message.content;
  const newline = content.indexOf('\n');
  return newline < 0 ? content : content.slice(newline + 1);
}

/** Plain-text rendering of items for a summariser: who said what, which tools ran, what came back. */
function renderTranscript(items: readonly ContextItem[], clipAt = Number.POSITIVE_INFINITY): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const m = item.message;
    if (item.kind === 'summary') lines.push(...summaryBody(item).split('\n'));
    else if (m.role === 'assistant') {
      if (m.content) lines.push(`- assistant: ${clip(m.content, clipAt)}`);
      for (const call of m.toolCalls) lines.push(`- called ${call.name} ${clip(call.arguments, clipAt)}`);
    } else if (m.role === 'tool') lines.push(`- result of ${m.toolCallId}: ${clip(m.content, clipAt)}`);
    else lines.push(`- ${m.role}: ${clip(m.content, clipAt)}`);
  }
  return lines;
}

/**
 * The offline summariser (faux endpoints, tests): a clipped line per message, newest kept when the
 * summary would exceed `maxChars`, so repeated compaction keeps the context bounded. Deterministic.
 */
export function deterministicSummary(items: readonly ContextItem[], maxChars: number): string {
  const lines = renderTranscript(items, 100);
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (size + line.length + 1 > maxChars) break;
    kept.unshift(line);
    size += line.length + 1;
  }
  const dropped = lines.length - kept.length;
  return [dropped > 0 ? `- (${dropped} older lines omitted)` : null, ...kept].filter((l) => l !== null).join('\n');
}

const SUMMARY_INSTRUCTIONS =
  'You compact an agent transcript. Write a concise summary the agent can continue from: the facts ' +
  'learned, decisions made, files and identifiers touched, tool results that still matter, and what ' +
  'remains to do. Do not invent anything.';

/** The model request that summarises `items` (used when the run's compaction summariser is `model`). */
export function summaryRequest(items: readonly ContextItem[], requestId: string, turn: number, maxOutputTokens: number): ModelRequest {
  return {
    requestId,
    purpose: 'summary',
    turn,
    messages: [
      { role: 'system', content: SUMMARY_INSTRUCTIONS },
      { role: 'user', content: renderTranscript(items).join('\n') },
    ],
    tools: [],
    maxOutputTokens,
  };
}
