// Test doubles of every engine port, for this package's tests and for other packages' tests.
export { InMemoryEventStore, type InMemoryStoreOptions } from './in-memory-store';
export { fixedClock, allowAllPolicy, policyFrom, MemoryBudget, unlimitedBudget, toolRunner, recordingModel, type ToolHandler } from './ports';
export { runToEnd, type HarnessOptions } from './harness';
export { sampleCatalogue } from './catalogue';
export { startFixture, testConfig, type Fixture, type FixtureOptions } from './fixture';
export { longScript, longScriptTools } from './long-script';
export { payloadsOf, callIds } from './events-of';
