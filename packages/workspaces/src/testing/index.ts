export { describeWorkspaceStore, type StoreFixture } from './store-contract';
export { makeRepo, writeAndCommit } from './repo-fixture';
export { craftedTar, systemTar, zipOf, type CraftedTarEntry, type TreeNode, type ZipFixtureEntry } from './archive-fixtures';
