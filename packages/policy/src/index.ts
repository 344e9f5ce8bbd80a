// @looplane/policy: what an agent may do, as pure code. A policy document (JSON or YAML) is parsed
// and validated here; `evaluate` decides one tool call, parsing shell command lines with a real
// shell parser. No IO: the worker, the API and the web simulator all call the same functions.

// Documents
export {
  policyDocumentSchema,
  ruleSchema,
  ruleMatchSchema,
  OUTCOMES,
  RISKS,
  APPROVER_ROLES,
  SANDBOX_DRIVERS,
  type PolicyDocument,
  type PolicyDocumentInput,
  type Rule,
  type RuleMatch,
  type Outcome,
  type Risk,
  type ApproverRole,
} from './document/policy-schema';
export { parsePolicyDocument, validatePolicyDocument, type PolicyIssue, type PolicyValidation } from './document/parse-document';
export { defaultPolicy, SAFE_COMMANDS } from './document/default-policy';
export { diffDocuments, type PolicyDiff, type RuleChange, type ValueChange } from './document/diff-documents';
export { isEgressAllowed, egressCredentials, isEndpointAllowed, isDriverAllowed } from './document/sections';
export { isSourceAllowed, type SourceDecision } from './document/workspace-sources';
export { checkBreakers, type BreakerVerdict, type GraphRunMeasures } from './breakers/check-breakers';

// Decisions
export { evaluate, simulate } from './evaluate/evaluate';
export { redecide, redecideCall, type ChangedDecision, type RecordedDecision, type Redecision } from './evaluate/redecide';
// A request through the egress proxy, by the http_request rules.
export { decideRequest, type ProxiedRequest, type RequestDecision } from './evaluate/decide-request';
export { policyPortFrom, toPolicyDecision } from './evaluate/policy-port';
export {
  DEFAULT_RULE,
  BUILTIN_RULE,
  type Decision,
  type Simulation,
  type TraceStep,
  type PolicyCall,
  type PolicyContext,
} from './evaluate/decision';

// Shell analysis
export { analyzeShell, analyzeArgv, type ShellContext } from './shell/analyze-shell';
export type { ShellAnalysis, ShellCommand, ShellFinding, ShellRedirect } from './shell/analysis-types';

// Effects (decided on a mutating call's result)
export { evaluateEffect, effectMatches, hasEffectRules, type EffectDecision, type EffectOptions } from './evaluate/evaluate-effect';
export {
  effectMatchSchema,
  workspaceEffectSchema,
  fileChangeSchema,
  FILE_CHANGES,
  type EffectMatch,
  type WorkspaceEffect,
  type FileChange,
  type FileChangeKind,
} from './document/effect-schema';
export { MUTATING_TOOLS } from './tool-names';
