/** A run event as `/api/runs/{id}/stream` sends it. */
export interface StreamedEvent {
  eventNo: number;
  sessionId: string;
  seq: number;
  type: string;
  payload: unknown;
  createdAt: string;
}

type Payload = Record<string, unknown>;
const str = (p: Payload, key: string) => (typeof p[key] === 'string' ? (p[key] as string) : '');
const MAX_TEXT = 2000;

function clip(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.length > MAX_TEXT ? `${trimmed.slice(0, MAX_TEXT)}… (${trimmed.length - MAX_TEXT} more characters)` : trimmed;
}

/** Continuation lines of a multi-line text, indented under the label. */
function indent(text: string): string {
  return clip(text).replace(/\n/g, '\n    ');
}

/** "an approver", "an admin", "a person": the role names as a sentence reads them. */
function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

function money(micros: unknown): string {
  return typeof micros === 'number' ? `$${(micros / 1_000_000).toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}` : '';
}

/**
 * One event as a line a person reads in a terminal, or null for events that only matter to
 * machines (streamed deltas, ledger bookkeeping); `--json` prints everything raw instead.
 */
export function formatEvent(event: StreamedEvent): string | null {
  const p = (event.payload ?? {}) as Payload;
  const time = event.createdAt.slice(11, 19);
  const line = (label: string, text: string) => `${time} #${event.eventNo} ${label.padEnd(9)} ${text}`;
  switch (event.type) {
    case 'run.started':
      return line('start', indent(str(p, 'goal')));
    case 'message.added':
      return line(str(p, 'role') === 'notice' ? 'notice' : 'message', indent(str(p, 'text')));
    case 'model.requested':
    case 'model.delta':
    case 'policy.decided':
    case 'tool.started':
    case 'budget.reserved':
    case 'budget.charged':
    case 'budget.released':
      return null;
    case 'model.responded': {
      const usage = (p.usage ?? {}) as Payload;
      return line('model', `${indent(str(p, 'text')) || '(tool calls)'}  [${usage.inputTokens ?? '?'} in / ${usage.outputTokens ?? '?'} out, ${money(p.costMicros)}]`);
    }
    case 'model.failed':
      return line('model', `failed: ${str((p.error ?? {}) as Payload, 'message')}`);
    case 'tool.requested':
      return line('tool →', `${str(p, 'name')} ${clip(JSON.stringify(p.args ?? {}))}`);
    case 'tool.finished': {
      const exit = typeof p.exitCode === 'number' ? ` (exit ${p.exitCode})` : '';
      return line('tool ←', `${p.ok === false ? 'failed' : 'ok'}${exit}${str(p, 'output') ? `: ${indent(str(p, 'output'))}` : ''}`);
    }
    case 'tools.loaded':
      return line('tools', `loaded ${Array.isArray(p.loaded) ? (p.loaded as string[]).join(', ') || 'none' : 'none'}`);
    case 'tool.rejected':
    case 'tool.interrupted':
      return line('tool ✗', `${event.type === 'tool.rejected' ? 'rejected' : 'interrupted'}: ${str(p, 'reason')}`);
    case 'approval.requested':
      return line('approval', `${str(p, 'tool')} needs a decision by ${withArticle(str(p, 'role') || 'person')}${str(p, 'reason') ? `: ${str(p, 'reason')}` : ''}`);
    case 'approval.decided':
      return line('approval', `${p.approved === false ? 'rejected' : 'approved'}${str(p, 'by') ? ` by ${str(p, 'by')}` : ''}`);
    case 'budget.exceeded':
      return line('budget', `exceeded: ${str(p, 'reason')}${p.onExceed === 'wait' ? ' (waiting for a raise)' : ''}`);
    case 'compaction.applied':
      return line('context', `compacted ${p.tokensBefore ?? '?'} → ${p.tokensAfter ?? '?'} tokens`);
    case 'delegation.sent':
      return line('delegate', `→ ${str(p, 'to')}: ${indent(str(p, 'goal'))}`);
    case 'delegation.returned':
      return line('delegate', `← ${p.ok === false ? 'failed' : 'ok'}${str(p, 'result') ? `: ${indent(str(p, 'result'))}` : ''}${str(p, 'error') ? `: ${indent(str(p, 'error'))}` : ''}`);
    case 'run.resumed':
      return line('resume', str(p, 'reason'));
    case 'run.finished':
      return line('finish', `${str(p, 'status')}${str(p, 'result') ? `: ${indent(str(p, 'result'))}` : ''}${str(p, 'error') ? `: ${indent(str(p, 'error'))}` : ''}`);
    default:
      return line('event', event.type);
  }
}
