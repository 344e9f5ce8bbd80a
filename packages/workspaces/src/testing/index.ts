export { describeWorkspaceStore, type StoreFixture } from './store-contract';
export { makeRepo, writeAndCommit } from './repo-fixture';
