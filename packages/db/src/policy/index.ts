// Team policies as the worker reads them: the active version and the shadow, checked per decision.
export { readTeamPolicyRows, type HeldPolicyVersions, type TeamPolicyRow } from './team-policy-rows.repository';
// The API's policy reads and writes: the active version, the policy lock, shadow disagreements, and backtests' recorded decisions.
export { activePolicyRow, type ActivePolicyRow } from './active-policy.repository';
export { lockTeamPolicy } from './policy-lock.repository';
export { insertShadowDisagreement, type ShadowDisagreementRow } from './shadow-disagreement.repository';
export {
  countRecordedDecisions,
  recordedDecisionPage,
  callArguments,
  decisionSeqs,
  type DecisionWindow,
  type DecisionCursor,
  type RecordedDecisionRow,
  type CallRef,
  type CallArguments,
  type DecisionSeq,
} from './recorded-decisions.repository';
