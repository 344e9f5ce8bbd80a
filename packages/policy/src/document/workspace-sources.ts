import { parseRepositoryUrl } from '@looplane/engine';
import { z } from 'zod';

/**
 * A repository address pattern: a URL (`https://github.com/acme/*`, `http://127.0.0.1:*\/**`,
 * `file:///srv/git/**`, `ssh://git@host/acme/*`) or scp-like (`git@github.com:acme/*`). `*` stands
 * for any text within one path segment (or the port), `**` for any text across segments.
 */
const sourcePatternSchema = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((pattern, ctx) => {
    const probe = parseRepositoryUrl(
      normalizePattern(pattern)
        .replace(/\*\*/g, 'x')
        .replace(/:\*(?=\/|$)/, ':1')
        .replace(/\*/g, 'x'),
    );
    if (!probe.ok) ctx.addIssue({ code: 'custom', message: `a source pattern is a repository URL with * and ** wildcards: it ${probe.reason}` });
  });

/** The repositories a team's runs may start from and deliver to (clone, push, pull requests). Default: none. */
export const workspaceSectionSchema = z.strictObject({
  sources: z.array(sourcePatternSchema).max(500).default([]),
});

const SCP_LIKE = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.*-]+):(?!\/\/)(.+)$/;

/** A pattern in the URL form repository addresses are compared in (scheme and host lower-cased). */
function normalizePattern(pattern: string): string {
  const scp = SCP_LIKE.exec(pattern);
  const url = scp && !pattern.includes('://') ? `ssh://${scp[1]}@${scp[2]}/${scp[3]!.replace(/^\/+/, '')}` : pattern;
  const at = url.indexOf('://');
  if (at < 0) return url;
  const hostEnd = url.indexOf('/', at + 3);
  const head = hostEnd < 0 ? url : url.slice(0, hostEnd);
  return head.toLowerCase() + (hostEnd < 0 ? '' : url.slice(hostEnd));
}

function patternRegex(pattern: string): RegExp {
  let out = '';
  const text = normalizePattern(pattern);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '*' && text[i + 1] === '*') {
      out += '.*';
      i++;
    } else if (c === '*') out += '[^/]*';
    else out += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

export type SourceDecision = { allowed: true; pattern: string } | { allowed: false; reason: string };

/** Whether the policy's `workspace.sources` let a run clone from (and deliver to) `url`. */
export function isSourceAllowed(sources: readonly string[], url: string): SourceDecision {
  const parsed = parseRepositoryUrl(url);
  if (!parsed.ok) return { allowed: false, reason: `the repository URL ${parsed.reason}` };
  // `https://host/acme/repo` and `https://host/acme/repo.git` are one repository.
  const candidates = [parsed.normalized, parsed.normalized.replace(/\.git\/?$/, ''), parsed.normalized.replace(/\/$/, '')];
  for (const pattern of sources) {
    const regex = patternRegex(pattern);
    if (candidates.some((candidate) => regex.test(candidate))) return { allowed: true, pattern };
  }
  return {
    allowed: false,
    reason:
      sources.length === 0
        ? `the team policy allows no repositories (workspace.sources is empty): an admin adds a pattern matching ${parsed.normalized}`
        : `${parsed.normalized} matches none of the policy's workspace.sources (${sources.join(', ')})`,
  };
}
