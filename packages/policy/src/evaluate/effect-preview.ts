import type { EffectMatch } from '../document/effect-schema';
import type { PolicyDocument } from '../document/policy-schema';
import type { EffectPreview } from './decision';
import { matchRule } from './match-rule';
import type { PreparedCall } from './prepare-call';

/** What an effect rule's conditions hold, in words: "deletions", "losing more than 50 % of a file of at least 1024 bytes". */
function describeEffectMatch(match: EffectMatch): string {
  const parts: string[] = [];
  if (match.deletes !== undefined) parts.push(match.deletes ? 'deletions' : 'no deletion');
  if (match.truncates !== undefined) parts.push(match.truncates ? 'truncations' : 'no truncation');
  if (match.typeChanged !== undefined) parts.push(match.typeChanged ? 'type changes' : 'no type change');
  if (match.lostFraction !== undefined) {
    const size = match.minFileBytes ? ` of at least ${match.minFileBytes} bytes` : '';
    parts.push(`losing more than ${Math.round(match.lostFraction * 100)} % of a file${size}`);
  }
  if (match.lostBytes !== undefined) parts.push(`losing more than ${match.lostBytes} bytes in total`);
  if (match.filesChanged !== undefined) parts.push(`changing more than ${match.filesChanged} existing files`);
  if (match.maxFilesChanged !== undefined) parts.push(`changing more than ${match.maxFilesChanged} files`);
  const where = match.paths ? ` under ${match.paths.join(', ')}` : '';
  return parts.length > 0 ? `${parts.join(' and ')}${where}` : `any change${where}`;
}

/** The effect rules whose call conditions this call meets: each will decide its result after it runs. */
export function effectPreviews(document: PolicyDocument, prepared: PreparedCall): EffectPreview[] {
  const previews: EffectPreview[] = [];
  for (const rule of document.rules) {
    if (!rule.match.effect || !matchRule(rule, prepared, document).matched) continue;
    previews.push({
      ruleId: rule.id,
      holds: describeEffectMatch(rule.match.effect),
      outcome: rule.outcome,
      ...(rule.outcome === 'require_approval' ? { approverRole: rule.approverRole ?? 'approver' } : {}),
    });
  }
  return previews;
}
