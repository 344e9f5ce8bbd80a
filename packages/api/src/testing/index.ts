// Test and benchmark helpers (`@looplane/api/testing`): real Postgres and Redis, never mocks.
export {
  TEST_PASSWORD,
  appendEvents,
  appendTestEvents,
  callerAs,
  createAgentFixture,
  createTeamFixture,
  createUser,
  issueToken,
  sessionOf,
  type AgentFixture,
  type TeamFixture,
  type TestUser,
} from './fixtures';
export { createTestLive, testRedisUrl, type TestLive } from './live';
export { serveApi, type ServedApi } from './node-server';
export { SseReader, type SseMessage } from './sse-reader';
