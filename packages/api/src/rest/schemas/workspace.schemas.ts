import { workspaceSourceSchema } from '@looplane/engine';
import { z } from 'zod';

const [fromRepository, fromArchive, fromSession] = workspaceSourceSchema.options;

/**
 * Where a run's files come from (`runs.create`'s `workspace`, an agent's or graph node's
 * default): the same schema as the procedures', each variant named in the document.
 */
export const workspaceSource = z
  .union([
    fromRepository.meta({
      id: 'WorkspaceFromRepository',
      description:
        'A repository the worker clones before the first model call: `url` (https, http, ssh, file or git@host:path; never a password or token), ' +
        '`ref` (a branch, tag or commit; default the remote’s HEAD), `secretRef` (a team secret: a token for https, an ssh_key for ssh), ' +
        '`depth` (history to fetch, default 1). The team policy’s `workspace.sources` must allow the URL.',
    }),
    fromArchive.meta({
      id: 'WorkspaceFromUpload',
      description: 'An archive uploaded with `POST /uploads` (its `id`), unpacked as the files.',
    }),
    fromSession.meta({
      id: 'WorkspaceFromSession',
      description: 'Another session’s files: as they were at its event `atEvent` (default: its latest).',
    }),
  ])
  .meta({
    id: 'WorkspaceSource',
    description: 'Where the run’s files come from; exactly one of `git`, `archive` or `session`.',
    examples: [
      { git: { url: 'https://github.com/acme/api.git', ref: 'main', secretRef: 'GITHUB_TOKEN' } },
      { archive: { uploadId: 'cmexampleupload000000000' } },
      { session: { sessionId: 'cmexamplesession00000000', atEvent: 12 } },
    ],
  });
