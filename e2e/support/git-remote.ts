import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createBareRepository, type RepositoryFiles, startGitHttpServer } from '@looplane/testkit/git-servers';
import type { APIRequestContext } from '@playwright/test';
import { stack, unique } from './stack';
import { trpcMutation, trpcQuery } from './trpc-api';

// The git server runs in this process: git against it must never block the event loop.
const run = promisify(execFile);

export interface GitRemote {
  /** The repository's URL (`http://127.0.0.1:<port>/acme/widgets.git`). */
  url: string;
  /** The commit its `main` holds. */
  headCommit: string;
  /** The team's token secret that fetches and pushes it. */
  secretName: string;
  /** `git ls-remote` of one ref through the server, with the token: `<sha>\t<ref>`, or '' when it does not exist. */
  lsRemote: (ref: string) => Promise<string>;
  /** Saves the team's policy as it was, deletes the secret, stops the server and removes the repository. */
  close: () => Promise<void>;
}

/**
 * A private repository for a spec: a bare repository of `files` on `main`, served over smart HTTP
 * (git http-backend, Basic auth) on 127.0.0.1 from this process; a team token secret for it, made
 * through the API; and the team policy's `workspace.sources` extended to allow the server, saved
 * through the API (the other rules stay, so pushes still wait for an approver).
 */
export async function startGitRemote(request: APIRequestContext, teamId: string, files: RepositoryFiles): Promise<GitRemote> {
  const token = stack.bootstrapToken;
  const root = await mkdtemp(join(tmpdir(), 'looplane-e2e-git-'));
  await chmod(root, 0o755);
  const repository = await createBareRepository(root, 'acme/widgets', files);
  const password = `e2e_${randomBytes(18).toString('hex')}`;
  const server = await startGitHttpServer({ root, users: { 'x-access-token': password } });
  const url = server.url('acme/widgets');
  const secretName = unique('E2E_REPO').toUpperCase().replace(/-/g, '_');
  await trpcMutation(request, 'secrets.create', token, { teamId, name: secretName, kind: 'token', value: password, username: 'x-access-token' });

  const active = await trpcQuery<{ document: Record<string, unknown> & { workspace?: { sources?: string[] } } }>(request, 'policies.get', token, { teamId });
  const original = active.document;
  const sources = [...(original.workspace?.sources ?? []), `${new URL(url).origin}/**`];
  await trpcMutation(request, 'policies.save', token, {
    teamId,
    document: { ...original, workspace: { ...original.workspace, sources } },
    comment: 'e2e: allow the spec’s git server',
  });

  const auth = ['-c', `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${password}`).toString('base64')}`];
  return {
    url,
    headCommit: repository.headCommit,
    secretName,
    lsRemote: async (ref) =>
      (await run('git', [...auth, 'ls-remote', url, ref], { encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })).stdout.trim(),
    close: async () => {
      try {
        await trpcMutation(request, 'policies.save', token, { teamId, document: original, comment: 'e2e: the policy as it was before the git server' });
        await trpcMutation(request, 'secrets.delete', token, { teamId, name: secretName });
      } finally {
        await server.close();
        await rm(root, { recursive: true, force: true });
      }
    },
  };
}
