// @looplane/engine: the agent loop as pure code. State = fold(events); next(state) -> action;
// drive() performs actions through ports. No IO module is imported anywhere in this package.

// Events
export type { EngineEvent, NewEvent, RawEvent, EventType, EventPayload } from './events/event-types';
export { decodeEvent, eventVersion } from './events/event-codec';
export { createEvent } from './events/create-event';
export { storableText } from './events/storable-text';
export { storedPayload } from './events/stored-payload';
export {
  FILE_CHANGES,
  fileChangeSchema,
  workspaceEffectSchema,
  heldEffectSchema,
  describeEffect,
  lostBytesOf,
  type FileChange,
  type FileChangeKind,
  type WorkspaceEffect,
  type HeldEffect,
  type RefusedEntry,
} from './events/workspace-effect';
export { RunStartedEvents } from './events/run-started';
export { workspaceCommitOf, WORKSPACE_COMMIT_EVENTS } from './events/workspace-commit';
export { workspaceSeededSchema, repositoryContextSchema, type WorkspaceSeed, type RepositoryContext } from './events/workspace-seeded';
export {
  workspaceSourceSchema,
  gitSourceSchema,
  parseRepositoryUrl,
  sourceKindOf,
  WORKSPACE_SOURCE_KINDS,
  AGENTS_MD_MAX_BYTES,
  parseStoredWorkspace,
  type StoredWorkspace,
  type StoredWorkspaceOrigin,
  type WorkspaceSource,
  type GitSource,
  type WorkspaceSourceKind,
  type RepositoryUrl,
} from './config/workspace-source';

// Configuration and templates
export { runConfigSchema, runSandboxSchema, parseRunConfig, type RunConfig, type RunConfigInput, type ModelLimits, type RunSandbox } from './config/run-config';
export { toolSpecSchema, LOAD_TOOLS, DELEGATE, type ToolSpec, type DelegateTarget } from './config/tool-spec';
export { DELIVERY_TOOL_SPECS, DELIVERY_TOOLS } from './config/delivery-tools';
export {
  LOAD_SKILL,
  SKILL_TEXT_MAX_BYTES,
  SKILL_MAX_FILES,
  skillNameSchema,
  skillDescriptionSchema,
  skillInstructionsSchema,
  skillFilePathSchema,
  skillFilesSchema,
  type SkillFile,
  type SkillIndexEntry,
  type RepositorySkill,
} from './skills/skill-schemas';
export {
  slashCommandSchema,
  slashCommandsSchema,
  expandSlashCommand,
  slashCommandUsage,
  type SlashCommand,
  type ExpandedCommand,
} from './config/slash-commands';

// State
export { apply, fold, foldUntil } from './state/fold';
export { initialState, type RunState, type ContextItem, type ToolCallState, type CallStatus, type ModelCycle, type Wait } from './state/run-state';

// Breakers (what the policy's breakers measure, folded from the log)
export { BREAKER_MAX_WINDOW_TURNS, SPEND_WINDOW_MS, repeatCount, recentSpend, type BreakerWindows } from './state/breaker-windows';
export { breakerTripSchema, type BreakerTrip } from './events/breaker-trip';

// Loop
export { next } from './loop/next';
export { isStop, type Action } from './loop/actions';
export { drive, type DriveOptions, type DriveOutcome, type DriveResult } from './loop/drive';
export { cancelRun } from './loop/cancel';
export { forkBlocker } from './loop/fork';

// Replay (`sessions.replay`): a branch that serves its recording's results while the new model agrees
export { recordingOf, recordingFrom } from './replay/recording';
export type { RecordedTurn, ReplayRecording } from './ports/replay-port';
export { REPLAY_MODES, replayMarkerSchema, type ReplayMarker, type ReplayMode, type ReplayDiverged } from './events/replay-schemas';

// Prompt, tokens, money
export { buildTurnRequest } from './state/build-request';
export { estimateTokens, estimatePromptTokens, promptBytes } from './prompt/tokens';
export { costMicros } from './budget/cost';
export { MODEL_OUTPUT_MAX_BYTES, DELTA_LOG_MAX_CHARS, capModelResult, cutToBytes, outputCapReason } from './model/output-cap';

// Ports
export type {
  ModelPort,
  ModelRequest,
  ModelResult,
  ModelCallOptions,
  ModelToolCall,
  ModelUsage,
  PromptMessage,
  PromptToolCall,
  ToolDefinition,
  JsonSchema,
  ProviderError,
  ProviderErrorCode,
} from './ports/model-port';
export type { ToolRunner, ToolInvocation, ToolResult, ToolArgs, JsonValue, EgressRecord, EffectVerdict } from './ports/tool-port';
export type { PolicyPort, PolicyDecision } from './ports/policy-port';
export type { BudgetPort, BudgetAmount, ReserveOutcome } from './ports/budget-port';
export type { EventStore } from './ports/event-store';
export type { Clock } from './ports/clock';
export type { EnginePorts } from './ports/engine-ports';
export type { SkillPort, LoadedSkill } from './ports/skill-port';

// The deterministic scripted model (the faux endpoint builds on it)
export { createScriptedModel, scriptTurnSchema, type ScriptTurn, type ScriptedModelOptions } from './model/scripted-model';
