import type { SandboxLevelDriver } from '@looplane/shared';
import type { WorkspaceSeed } from '../events/workspace-seeded';
import type { RunConfig } from '../config/run-config';
import type { PromptMessage, ToolDefinition } from '../ports/model-port';
import type { BudgetAmount } from '../ports/budget-port';
import type { ToolArgs } from '../ports/tool-port';
import { initialBreakerWindows, type BreakerWindows } from './breaker-windows';
import type { ReplayState } from './replay-state';
import type { RepositorySkill } from '../skills/skill-schemas';

/**
 * One entry of the model's context. `no` is a stable, monotonic number (compaction cuts by it);
 * pinned items (system prompt, goal, notices) are never compacted away.
 */
export interface ContextItem {
  no: number;
  kind: 'system' | 'goal' | 'notice' | 'user' | 'assistant' | 'tool' | 'summary';
  pinned: boolean;
  tokens: number;
  /** UTF-8 bytes of the message as JSON: running sums give the prompt size without serialising it. */
  bytes: number;
  message: PromptMessage;
}

export type CallStatus =
  | 'requested'
  | 'rejected'
  | 'allowed'
  | 'denied'
  | 'awaiting_approval'
  | 'approved'
  | 'refused'
  | 'started'
  | 'finished'
  | 'interrupted'
  | 'loaded'
  | 'delegated'
  | 'returned';

export interface ToolCallState {
  id: string;
  name: string;
  args: ToolArgs;
  argsError: string | null;
  status: CallStatus;
  /** How many times it started; above 1 means an interrupted call re-ran. */
  attempts: number;
  /** Set once a human was asked about this call after an interruption, so they are asked only once. */
  interruptionAsked: boolean;
  editedByApprover: boolean;
  /** A result the policy's effect rules held (the call ran; its changes wait for an approver). */
  held: HeldResult | null;
  /** The isolation its policy decision requires (`policy.decided`'s `isolation` and rule), passed to the tool port. */
  isolation?: { level: SandboxLevelDriver; ruleId: string | null };
}

/** What a held call produced, kept until an approver decides: applied as it is, or dropped. */
interface HeldResult {
  commit: string;
  ok: boolean;
  output: string;
  truncated: boolean;
  exitCode?: number;
  /** One line on what the call changed (for the model, after a rejection). */
  summary: string;
}

/** A budgeted model call (a turn or a summary) from reservation to settlement. */
export interface ModelCycle {
  requestId: string;
  purpose: 'model' | 'compaction';
  reserved: BudgetAmount;
  requested: boolean;
  /** Text already persisted as `model.delta` events, so a resumed call does not repeat it. */
  deltaChars: number;
  deltaCount: number;
  /** Set when the call ended (answer, failure or summary); the next step settles the budget. */
  spent: BudgetAmount | null;
}

export type Wait =
  | { reason: 'approval'; callId: string }
  | { reason: 'budget'; requestId: string }
  /** A call deferred for an isolation level this worker lacks (`tool.deferred`). */
  | { reason: 'isolation'; callId: string; level: SandboxLevelDriver };

type RunStatus = 'new' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/**
 * The fold of a session's events. It is mutated in place by `apply` (one owner, the driver), which
 * keeps a step O(1) however long the log; `fold` always starts from a fresh state.
 */
export interface RunState {
  lastSeq: number;
  status: RunStatus;
  goal: string;
  config: RunConfig | null;
  startedAt: string | null;
  updatedAt: string | null;
  /** Completed model turns. */
  turn: number;
  context: ContextItem[];
  nextItemNo: number;
  contextTokens: number;
  contextBytes: number;
  /** Tool definitions sent with every model call, and their token estimate and JSON size. */
  toolDefs: ToolDefinition[];
  toolTokens: number;
  toolBytes: number;
  loadedTools: string[];
  /** Skills whose instructions are in the context (`skill.loaded`), in load order. */
  loadedSkills: string[];
  /** The seeded repository's skills (`run.started.repository`), offered beside the config's. */
  repositorySkills: RepositorySkill[];
  /** Tool calls of the latest model turn, in the order the model made them. */
  calls: ToolCallState[];
  /** Calls of the latest turn still without a tool message in the context. */
  openCalls: number;
  /**
   * Messages that arrived while calls were open: the protocol wants every tool result right after
   * its assistant message, so they join the context once the turn's last result is in.
   */
  deferred: { kind: 'user' | 'notice'; message: PromptMessage }[];
  /** `turn` when the latest human message arrived (a persistent run's turn limit counts from it). */
  inputTurn: number;
  /** Text of the latest answer while it has no tool calls: the result, once settled. */
  finalText: string | null;
  /** The seq of the `model.responded` that holds `finalText` (what `run.finished` names instead of repeating it). */
  finalTextSeq: number | null;
  cycle: ModelCycle | null;
  waiting: Wait | null;
  /** Why the run must fail at the next step (a provider error, a refused budget under `fail`). */
  failure: string | null;
  result: string | null;
  error: string | null;
  totals: { inputTokens: number; outputTokens: number; costMicros: number; modelCalls: number; toolRuns: number; compactions: number };
  memory: Record<string, { version: number; value: unknown }>;
  /** What the policy's breakers measure, folded from the log (see `breaker-windows.ts`). */
  breakers: BreakerWindows;
  /** Set on a replay branch (`session.forked` with `replay`): how far it agrees with its recording. */
  replay: ReplayState | null;
  /** Where the session's files came from (`workspace.seeded`), inherited by its forks; null: it started empty. */
  seed: WorkspaceSeed | null;
}

/** The state before any event. */
export function initialState(): RunState {
  return {
    lastSeq: 0,
    status: 'new',
    goal: '',
    config: null,
    startedAt: null,
    updatedAt: null,
    turn: 0,
    context: [],
    nextItemNo: 1,
    contextTokens: 0,
    contextBytes: 0,
    toolDefs: [],
    toolTokens: 0,
    toolBytes: 0,
    loadedTools: [],
    calls: [],
    openCalls: 0,
    loadedSkills: [],
    repositorySkills: [],
    deferred: [],
    inputTurn: 0,
    finalText: null,
    finalTextSeq: null,
    cycle: null,
    waiting: null,
    failure: null,
    result: null,
    error: null,
    totals: { inputTokens: 0, outputTokens: 0, costMicros: 0, modelCalls: 0, toolRuns: 0, compactions: 0 },
    memory: {},
    breakers: initialBreakerWindows(),
    replay: null,
    seed: null,
  };
}
