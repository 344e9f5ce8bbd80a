import { z } from 'zod';

/**
 * Where a session's files come from before its first model call (`runs.create`'s `workspace`, an
 * agent template's or graph node's default): a repository the worker clones outside the sandbox,
 * an uploaded archive, or another session's files. The worker records the outcome as the session's
 * `workspace.seeded` event.
 */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** scp-like ssh address: `user@host:path` (no scheme). */
const SCP_LIKE = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):(?!\/\/)(.+)$/;

export type RepositoryUrl = { ok: true; normalized: string; scheme: 'https' | 'http' | 'ssh' | 'file' } | { ok: false; reason: string };

/**
 * Parses a repository address: `https://`, `http://`, `ssh://`, `file://`, or scp-like
 * `git@host:path`. `normalized` is the URL form (`ssh://git@host/path` for scp-like) that policy
 * patterns match. A password in the URL is refused (credentials come from a team secret).
 */
export function parseRepositoryUrl(raw: string): RepositoryUrl {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character in a URL is refused, not matched.
  if (/[\u0000-\u0020\u007f]/.test(raw)) return { ok: false, reason: 'must not contain spaces or control characters' };
  if (raw.startsWith('-')) return { ok: false, reason: 'must not start with "-"' };
  const scp = SCP_LIKE.exec(raw);
  if (scp && !raw.includes('://')) {
    const [, user, host, path] = scp;
    return { ok: true, normalized: `ssh://${user}@${host}/${path!.replace(/^\/+/, '')}`, scheme: 'ssh' };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a URL (https://…, ssh://…, file://… or git@host:path)' };
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'https' && scheme !== 'http' && scheme !== 'ssh' && scheme !== 'file') {
    return { ok: false, reason: `scheme ${scheme}: is not one of https, http, ssh, file` };
  }
  if (url.password) return { ok: false, reason: 'must not hold a password or token: name a team secret in secretRef instead' };
  if ((scheme === 'https' || scheme === 'http') && url.username) {
    return { ok: false, reason: 'must not hold a user name or token: name a team secret in secretRef instead' };
  }
  if (url.search || url.hash) return { ok: false, reason: 'must not have a query or fragment' };
  if (scheme === 'file' && url.host !== '') return { ok: false, reason: 'a file:// URL names a local path (file:///path)' };
  if (scheme !== 'file' && !url.hostname) return { ok: false, reason: 'has no host' };
  if (url.pathname === '/' || url.pathname === '') return { ok: false, reason: 'names no repository path' };
  return { ok: true, normalized: url.href, scheme };
}

/** A branch, tag or commit: what `git check-ref-format` and rev syntax make safe to pass as one argument. */
const refSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((ref) => !ref.startsWith('-'), 'must not start with "-"')
  .refine((ref) => /^[A-Za-z0-9._/+@-]+$/.test(ref), 'may use only letters, digits and . _ / + @ -')
  .refine(
    (ref) => !ref.includes('..') && !ref.includes('@{') && !ref.endsWith('.lock') && !ref.endsWith('/') && !ref.startsWith('/'),
    'is not a valid git ref',
  );

const repositoryUrlSchema = z
  .string()
  .min(1)
  .max(2000)
  .superRefine((url, ctx) => {
    const parsed = parseRepositoryUrl(url);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `repository URL ${parsed.reason}` });
  });

const secretNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must name a team secret (letters, digits, "_", "-" and ".")');

export const gitSourceSchema = z.strictObject({
  url: repositoryUrlSchema,
  /** A branch, tag or commit; default the remote's HEAD. */
  ref: refSchema.optional(),
  /** The team secret holding the credential: a token (https) or a private key (ssh). */
  secretRef: secretNameSchema.optional(),
  /** History depth to fetch (default 1: the commit alone). */
  depth: z.int().min(1).max(100_000).optional(),
});

export const workspaceSourceSchema = z.union([
  z.strictObject({ git: gitSourceSchema }),
  z.strictObject({ archive: z.strictObject({ uploadId: z.string().regex(ID, 'is not an upload id') }) }),
  z.strictObject({
    session: z.strictObject({
      sessionId: z.string().regex(ID, 'is not a session id'),
      /** The files as they were at this event of that session's log (default: its latest). */
      atEvent: z.int().min(1).max(2_147_483_647).optional(),
    }),
  }),
]);
export type WorkspaceSource = z.output<typeof workspaceSourceSchema>;
export type GitSource = z.output<typeof gitSourceSchema>;

export const WORKSPACE_SOURCE_KINDS = ['git', 'archive', 'session'] as const;
export type WorkspaceSourceKind = (typeof WORKSPACE_SOURCE_KINDS)[number];

export function sourceKindOf(source: WorkspaceSource): WorkspaceSourceKind {
  return 'git' in source ? 'git' : 'archive' in source ? 'archive' : 'session';
}

/** The largest `AGENTS.md` whose text goes into a session's context; a longer one is cut there. */
export const AGENTS_MD_MAX_BYTES = 32 * 1024;

/** Where another session's files were when a run naming them was created: its run (the store's key) and commit (null: empty). */
const storedOriginSchema = z.strictObject({
  runId: z.string().min(1),
  commit: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/)
    .nullable(),
  atEvent: z.int().nonnegative(),
});
export type StoredWorkspaceOrigin = z.output<typeof storedOriginSchema>;

/** `Run.workspace` as stored: the source as given; for another session's files, also `from`, resolved at create. */
export type StoredWorkspace = WorkspaceSource & { from?: StoredWorkspaceOrigin };

/** Reads `Run.workspace`; null when there is none, and an error naming the problem when it does not parse. */
export function parseStoredWorkspace(value: unknown): { ok: true; value: StoredWorkspace | null } | { ok: false; reason: string } {
  if (value === null || value === undefined) return { ok: true, value: null };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'the run workspace is not an object' };
  const { from, ...source } = value as Record<string, unknown>;
  const parsed = workspaceSourceSchema.safeParse(source);
  if (!parsed.success) return { ok: false, reason: `the run workspace does not parse: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  if (from === undefined) return { ok: true, value: parsed.data };
  const origin = storedOriginSchema.safeParse(from);
  if (!origin.success) return { ok: false, reason: 'the run workspace names an unreadable origin' };
  return { ok: true, value: { ...parsed.data, from: origin.data } };
}
