import type { Forge } from '@looplane/db';
import { z } from 'zod';
import type { ForgeRepository } from './forge-remote';

/** What a pull request is opened with. */
export interface PullRequestFields {
  /** The branch with the changes, and the branch they should go into. */
  head: string;
  base: string;
  title: string;
  body: string;
}

/** One forge's request for a new pull request, and how to read its answer. */
export interface ForgeRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The pull request's web page and number, from a 2xx answer's JSON. */
  answer: z.ZodType<{ url: string; number: number }>;
}

/** The name a message gives a forge. */
export const FORGE_NAMES: Record<Forge, string> = { github: 'GitHub', gitlab: 'GitLab', gitea: 'Gitea' };

const webUrl = z.url({ protocol: /^https?$/ });
const number = z.int().min(1);

/** GitHub and Gitea answer `html_url` and `number`; GitLab `web_url` and the project-scoped `iid`. */
const pullAnswer = z.object({ html_url: webUrl, number }).transform((a) => ({ url: a.html_url, number: a.number }));
const mergeRequestAnswer = z.object({ web_url: webUrl, iid: number }).transform((a) => ({ url: a.web_url, number: a.iid }));

const segment = encodeURIComponent;

/**
 * The request that opens a pull request (GitLab: a merge request) on `forge`, whose API is at
 * `apiUrl`. Each forge takes its token in its own header: GitHub `Authorization: Bearer`, GitLab
 * `PRIVATE-TOKEN`, Gitea `Authorization: token`.
 */
export function pullRequestRequest(forge: Forge, apiUrl: string, repository: ForgeRepository, token: string, fields: PullRequestFields): ForgeRequest {
  const json = { 'content-type': 'application/json', 'user-agent': 'Looplane' };
  switch (forge) {
    case 'github':
      return {
        url: `${apiUrl}/repos/${segment(repository.owner)}/${segment(repository.repo)}/pulls`,
        headers: { ...json, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', authorization: `Bearer ${token}` },
        body: JSON.stringify({ title: fields.title, head: fields.head, base: fields.base, body: fields.body }),
        answer: pullAnswer,
      };
    case 'gitlab':
      return {
        url: `${apiUrl}/projects/${segment(repository.path)}/merge_requests`,
        headers: { ...json, accept: 'application/json', 'private-token': token },
        body: JSON.stringify({ source_branch: fields.head, target_branch: fields.base, title: fields.title, description: fields.body }),
        answer: mergeRequestAnswer,
      };
    case 'gitea':
      return {
        url: `${apiUrl}/repos/${segment(repository.owner)}/${segment(repository.repo)}/pulls`,
        headers: { ...json, accept: 'application/json', authorization: `token ${token}` },
        body: JSON.stringify({ head: fields.head, base: fields.base, title: fields.title, body: fields.body }),
        answer: pullAnswer,
      };
  }
}

const text = z.string();
/**
 * The error shapes the three forges answer with: GitHub `{ message, errors: [{ message | code, field }] }`,
 * GitLab `{ message: string | string[] | { field: string[] } }` or `{ error, error_description }`,
 * Gitea `{ message }`.
 */
const errorAnswer = z.object({
  message: z.union([text, z.array(text), z.record(text, z.union([text, z.array(text)]))]).optional(),
  error: text.optional(),
  error_description: text.optional(),
  errors: z.array(z.union([text, z.object({ message: text.optional(), code: text.optional(), field: text.optional() })])).optional(),
});

/** The forge's own words for a failed request, from its JSON answer, or the start of a text one. */
export function forgeMessageOf(raw: string): string {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return raw.trim().slice(0, 300);
  }
  const parsed = errorAnswer.safeParse(json);
  if (!parsed.success) return raw.trim().slice(0, 300);
  const { message, error, error_description, errors } = parsed.data;
  const parts: string[] = [];
  if (typeof message === 'string') parts.push(message);
  else if (Array.isArray(message)) parts.push(...message);
  else if (message) for (const [field, said] of Object.entries(message)) parts.push(`${field} ${[said].flat().join(', ')}`);
  if (error) parts.push(error_description ? `${error}: ${error_description}` : error);
  for (const item of errors ?? []) {
    if (typeof item === 'string') parts.push(item);
    else if (item.message) parts.push(item.message);
    else if (item.code) parts.push([item.field, item.code].filter(Boolean).join(' '));
  }
  return parts.join('; ').slice(0, 500);
}
