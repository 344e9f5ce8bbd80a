import type { PolicyDocument } from '@looplane/policy';

/** Why a branch name cannot be pushed to, or null: git's ref-name rules, kept to what every forge accepts. */
export function branchNameProblem(branch: string): string | null {
  if (branch.length === 0 || branch.length > 200) return 'a branch name is 1 to 200 characters';
  if (!/^[A-Za-z0-9._/+-]+$/.test(branch)) return 'a branch name may use only letters, digits and . _ / + -';
  if (branch.startsWith('-') || branch.startsWith('/') || branch.endsWith('/') || branch.endsWith('.') || branch.endsWith('.lock')) {
    return 'a branch name may not start with - or /, or end with /, . or .lock';
  }
  if (branch.includes('..') || branch.includes('//') || branch.split('/').some((part) => part.startsWith('.'))) {
    return 'a branch name may not hold .., // or a part starting with .';
  }
  if (branch === 'HEAD') return 'HEAD is not a branch name';
  return null;
}

/**
 * Whether the policy explicitly lets `publish_branch` push to `branch` (the remote's default
 * branch): a rule, not `deny`, naming the tool (not through `*`) with `args.branch` exactly that name.
 */
export function allowsDefaultBranch(document: PolicyDocument, branch: string): boolean {
  return document.rules.some((rule) => {
    const tools = Array.isArray(rule.match.tool) ? rule.match.tool : [rule.match.tool];
    const wanted = rule.match.args?.branch;
    const names = Array.isArray(wanted) ? wanted : wanted === undefined ? [] : [wanted];
    return rule.outcome !== 'deny' && tools.includes('publish_branch') && names.includes(branch);
  });
}
