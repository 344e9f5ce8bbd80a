export { type BareRepository, type BareRepositoryOptions, createBareRepository, type RepositoryFiles } from './bare-repository';
export { type GitHttpRequestLog, type GitHttpServer, type GitHttpServerOptions, startGitHttpServer } from './http-server';
export { generateSshKey, type SshKeyPair } from './ssh-key';
export { type SshGitServer, type SshGitServerOptions, startSshGitServer } from './ssh-server';
