import { describeEffect, type EventPayload, type EventType } from '@looplane/engine/events';
import type { ClientEvent } from './client-event';
import { argsText, cutText, money, ONE_LINE, withArticle, type TextStyle } from './event-text';

export type EventTone = 'info' | 'success' | 'warning' | 'danger';

/** What people see of one event: the timeline's notices, the branch list, each line of `looplane tail`. */
export interface EventDescription {
  /** A human label: "Tool finished", "Approval needed". */
  label: string;
  /** What happened, after the label: "failed (exit 1): 1 failing". One line unless the style keeps breaks. */
  summary: string;
  tone: EventTone;
  /** Bookkeeping a person following a run does not need (streamed deltas, ledger rows, allowed calls). */
  quiet: boolean;
}

type Described = Pick<EventDescription, 'label' | 'summary'> & Partial<Pick<EventDescription, 'tone' | 'quiet'>>;
type Describer<T extends EventType> = (payload: EventPayload<T>, text: (value: string) => string, style: TextStyle) => Described;

const ok = (value: boolean) => (value ? 'ok' : 'failed');
const okTone = (value: boolean): EventTone => (value ? 'success' : 'danger');
const served = (replayed: true | undefined) => (replayed ? ' (replayed from the log)' : '');
const after = (prefix: string, value: string | undefined) => (value ? `${prefix}${value}` : '');
const amount = (p: { tokens: number; costMicros: number }) => `${p.tokens} tokens, ${money(p.costMicros)}`;

const APPROVAL_SUBJECT: Record<EventPayload<'approval.requested'>['kind'], (tool: string) => string> = {
  tool: (tool) => tool,
  interrupted: (tool) => `Running the interrupted ${tool} again`,
  effect: (tool) => `Keeping what ${tool} changed`,
  breaker: (tool) => `Resuming before ${tool} (a breaker tripped)`,
};

/**
 * One entry per engine event type: the mapped type makes a new type without an entry a type
 * error, and the decoder's tests go over every type and version.
 */
const DESCRIBERS: { [T in EventType]: Describer<T> } = {
  'run.started': (p, text) => ({ label: 'Run started', summary: `${p.command ? `/${p.command.name} · ` : ''}${text(p.goal)}` }),
  'run.resumed': (p, text) => ({
    label: 'Run resumed',
    summary: `${p.reason === 'budget' ? 'after a budget raise' : p.reason === 'isolation' ? 'on a worker offering the isolation it waited for' : 'by an operator'}${after(': ', p.note && text(p.note))}`,
  }),
  'run.finished': (p, text) => ({
    label: 'Run finished',
    // v2: a result that is the final answer names that answer's event instead of repeating it.
    summary: `${p.status}${after(': ', p.result ? text(p.result) : p.resultSeq !== undefined ? `the answer at #${p.resultSeq}` : '')}${after(': ', p.error && text(p.error))}`,
    tone: p.status === 'succeeded' ? 'success' : p.status === 'failed' ? 'danger' : 'warning',
  }),
  'session.forked': (p) =>
    p.replay
      ? {
          label: 'Replay started',
          summary: `of session ${p.replay.sourceSessionId} after #${p.replay.atEvent} (${p.replay.mode === 'stop' ? 'stops' : 'goes on live'} at the first divergence)`,
        }
      : { label: 'Branch forked', summary: `from session ${p.parentSessionId} at #${p.atSeq}` },
  'message.added': (p, text) => ({ label: p.role === 'notice' ? 'Notice' : 'Message', summary: text(p.text) }),
  'model.requested': (p) => ({
    label: 'Model called',
    summary: `turn ${p.turn + 1}: ${p.messages} messages, ${p.tools.length} tools, ~${p.promptTokens} prompt tokens`,
    quiet: true,
  }),
  'model.delta': (p, text) => ({ label: 'Model streaming', summary: text(p.text), quiet: true }),
  'model.responded': (p, text) => ({
    label: p.truncated ? 'Model answered (truncated)' : 'Model answered',
    summary: `${text(p.text) || '(tool calls)'}  [${p.usage.inputTokens} in / ${p.usage.outputTokens} out, ${money(p.costMicros)}]`,
  }),
  'model.failed': (p) => ({ label: 'Model failed', summary: `${p.error.message}${p.error.retryable ? ' (retryable)' : ''}`, tone: 'danger' }),
  'tool.requested': (p, _text, style) => ({
    label: 'Tool call',
    summary: p.argsError ? `${p.name}: its arguments are not a JSON object (${p.argsError})` : `${p.name} ${argsText(p.args, style)}`,
  }),
  'tool.rejected': (p, text) => ({ label: 'Tool rejected', summary: text(p.reason), tone: 'danger' }),
  'skill.loaded': (p) => ({
    label: 'Skill loaded',
    summary: `${p.name} v${p.version} (${p.source === 'repository' ? "the repository's" : 'team library'})${after(' · files: ', p.files.join(', '))}${served(p.replayed)}`,
  }),
  'tools.loaded': (p) => ({ label: 'Tools loaded', summary: `${p.loaded.join(', ') || 'none'}${after('; unknown: ', p.unknown.join(', '))}` }),
  'policy.decided': (p, text) => ({
    label: 'Policy decided',
    summary: `${p.decision === 'require_approval' ? `needs approval${after(' by ', p.role && withArticle(p.role))}` : p.decision}${after(': ', p.reason && text(p.reason))}${after(' · rule ', p.ruleId)}`,
    tone: p.decision === 'deny' ? 'danger' : p.decision === 'allow' ? 'info' : 'warning',
    // A hold is announced by its approval.requested.
    quiet: p.decision !== 'deny',
  }),
  'approval.requested': (p, text) => ({
    label: 'Approval needed',
    summary: `${APPROVAL_SUBJECT[p.kind](p.tool)} needs a decision by ${withArticle(p.role)}${after(': ', p.reason && text(p.reason))}`,
    tone: 'warning',
  }),
  'approval.decided': (p, text) => ({
    label: 'Approval decided',
    summary: `${p.approved ? 'approved' : 'rejected'}${after(' by ', p.by)}${p.editedArgs ? ' with edited arguments' : ''}${after(': ', p.comment && text(p.comment))}`,
    tone: p.approved ? 'success' : 'danger',
  }),
  'tool.started': (p) => ({ label: 'Tool started', summary: `${p.name}${p.attempt > 1 ? ` (attempt ${p.attempt})` : ''}`, quiet: true }),
  'tool.finished': (p, text) => ({
    label: 'Tool finished',
    summary: `${ok(p.ok)}${p.exitCode === undefined ? '' : ` (exit ${p.exitCode})`}${served(p.replayed)}${after(' · commit ', p.commit?.slice(0, 7))}${after(': ', text(p.output))}`,
    tone: okTone(p.ok),
  }),
  'tool.interrupted': (p, text) => ({ label: 'Tool interrupted', summary: text(p.reason), tone: 'warning' }),
  'tool.deferred': (p, text) => ({ label: 'Tool deferred', summary: `waits for a worker offering ${p.level}: ${text(p.reason)}`, tone: 'warning' }),
  'effect.decided': (p, text) => ({
    label: p.decision === 'deny' ? 'Effect denied' : 'Effect held',
    summary: `rolled back (${describeEffect(p.held.effect)}): ${text(p.reason)}`,
    tone: p.decision === 'deny' ? 'danger' : 'warning',
  }),
  'egress.decided': (p, text) => ({
    label: p.allowed ? 'Egress allowed' : 'Egress refused',
    summary: `${p.kind === 'connect' ? 'CONNECT' : p.method} ${p.host}:${p.port}${after(': ', text(p.reason))}${after(' · injected ', p.injectedHeaders.join(', '))}`,
    tone: p.allowed ? 'info' : 'warning',
  }),
  'breaker.tripped': (p, text) => ({
    label: 'Breaker tripped',
    summary: `${p.breaker}: ${p.observed} ${p.unit} (limit ${p.limit}) ${p.window}: ${text(p.reason)}`,
    tone: 'warning',
  }),
  'budget.reserved': (p) => ({ label: 'Budget reserved', summary: `${amount(p)} for the ${p.purpose} call`, quiet: true }),
  'budget.charged': (p) => ({ label: 'Budget charged', summary: amount(p), quiet: true }),
  'budget.released': (p) => ({ label: 'Budget released', summary: amount(p), quiet: true }),
  'budget.exceeded': (p, text) => ({
    label: 'Budget exceeded',
    summary: `${text(p.reason)}${p.onExceed === 'wait' ? ' — the run waits for a raise' : ' — the run fails'}`,
    tone: 'warning',
  }),
  'compaction.applied': (p) => ({ label: 'Context compacted', summary: `${p.tokensBefore} → ${p.tokensAfter} tokens (${p.removedItems} items summarised)` }),
  'delegation.sent': (p, text) => ({ label: 'Delegated', summary: `to ${p.to}: ${text(p.goal)}` }),
  'delegation.returned': (p, text) => ({
    label: 'Delegation returned',
    summary: `${ok(p.ok)}${served(p.replayed)}${after(': ', text(p.result))}`,
    tone: okTone(p.ok),
  }),
  'replay.matched': (p) => ({
    label: 'Replay matched',
    summary: `turn ${p.turn} asks for the same calls as the recording; ${p.calls.filter((c) => c.served).length} of ${p.calls.length} results served from the log`,
  }),
  'replay.diverged': (p, text) => ({ label: 'Replay diverged', summary: `at turn ${p.turn}: ${text(p.detail)}`, tone: 'warning' }),
  'memory.written': (p) => ({ label: 'Memory written', summary: `${p.key} (v${p.version})` }),
  'workspace.seeded': (p) => ({
    label: 'Files seeded',
    summary: `${seedOrigin(p)} · ${p.files} files, ${p.bytes} bytes · commit ${p.commit.slice(0, 7)}`,
  }),
  'workspace.restored': (p) => ({
    label: 'Files restored',
    summary: `${p.paths ? p.paths.join(', ') : 'the whole workspace'} as at #${p.atEvent}, by user ${p.requestedBy} · commit ${p.commit.slice(0, 7)}`,
  }),
};

/** Where a session's files came from, in one phrase. */
function seedOrigin(p: EventPayload<'workspace.seeded'>): string {
  if (p.source === 'git') return `${p.url ?? 'a repository'} at ${p.ref ?? p.branch ?? 'HEAD'}${p.revision ? ` (${p.revision.slice(0, 7)})` : ''}`;
  if (p.source === 'archive') return `upload ${p.filename ?? p.uploadId ?? ''}`.trim();
  return `session ${p.fromSession?.sessionId ?? ''} at #${p.fromSession?.atEvent ?? 0}`;
}

/** What people see of an event; texts it carries are cut to `style` (default: one line). */
export function describeEvent(event: ClientEvent, style: TextStyle = ONE_LINE): EventDescription {
  if (event.type === 'unknown') return { label: event.wireType, summary: `v${event.version}: ${event.problem}`, tone: 'info', quiet: false };
  const describe = DESCRIBERS[event.type] as Describer<EventType>;
  const described = describe(event.payload, (value) => cutText(value, style), style);
  return { tone: 'info', quiet: false, ...described };
}

/** Label and summary as one line: "Budget exceeded: cost limit — the run waits for a raise". */
export function headline(event: ClientEvent, style: TextStyle = ONE_LINE): string {
  const { label, summary } = describeEvent(event, style);
  return summary ? `${label}: ${summary}` : label;
}
