// Teams: the lock that serialises a team's membership changes.
export { lockTeamMembership } from './team-lock.repository';
