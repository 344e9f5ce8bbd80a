// Team policies as the worker reads them: the active version and the shadow, checked per decision.
export { readTeamPolicyRows, type HeldPolicyVersions, type TeamPolicyRow } from './team-policy-rows.repository';
