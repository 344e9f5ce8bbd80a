// Test fixtures of the durable runtime (`@looplane/db/testing`): rows as the runs API inserts them.
export { createTestTeam, createTestAgent, createTestRun, createTestRunsBulk, type TestAgent, type TestAgentOptions, type TestRunOptions } from './run-fixtures';
export { STEP_CALLS as DEMO_STEP_CALLS } from '../../seed-demo';
export { createTestGraphRun, type TestGraphNode, type TestGraphEdge, type TestGraphRunOptions } from '../../swarm/testing/graph-run-fixture';
export { webhookEndpointWithClaimedDeliveries, failedWebhookAttempt, raceJitter } from '../../webhooks/testing/race-fixtures';
