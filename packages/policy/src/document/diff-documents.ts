import type { PolicyDocument, Rule } from './policy-schema';

/** One value that differs, by dotted path (`approvals.fourEyes`, `match.commands`). Arrays compare whole. */
export interface ValueChange {
  path: string;
  before: unknown;
  after: unknown;
}

/** A rule present in both versions (same id) whose content changed. */
export interface RuleChange {
  id: string;
  before: Rule;
  after: Rule;
  changes: ValueChange[];
}

/** What changed between two versions of a policy, for the "diff between versions" view. */
export interface PolicyDiff {
  unchanged: boolean;
  rules: {
    added: { index: number; rule: Rule }[];
    removed: { index: number; rule: Rule }[];
    changed: RuleChange[];
    /** Rules kept in both versions now come in another order: first match wins, so order matters. */
    reordered: boolean;
    orderBefore: string[];
    orderAfter: string[];
  };
  /** Changes outside the rules: default, name, description, egress, models, sandbox, approvals. */
  sections: ValueChange[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with sorted keys: two values are equal when their canonical texts are. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Leaf-level differences between two values (objects descend, everything else compares whole). */
function changesBetween(before: unknown, after: unknown, path: string, skip: Set<string> = new Set()): ValueChange[] {
  if (canonical(before) === canonical(after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !skip.has(k)).sort();
    return keys.flatMap((key) => changesBetween(before[key], after[key], path ? `${path}.${key}` : key));
  }
  return [{ path, before, after }];
}

/** Compares two policy versions: rules by id (added, removed, changed, reordered) and every other section by value. */
export function diffDocuments(before: PolicyDocument, after: PolicyDocument): PolicyDiff {
  const oldById = new Map(before.rules.map((rule, index) => [rule.id, { rule, index }]));
  const newById = new Map(after.rules.map((rule, index) => [rule.id, { rule, index }]));
  const added = after.rules.flatMap((rule, index) => (oldById.has(rule.id) ? [] : [{ index, rule }]));
  const removed = before.rules.flatMap((rule, index) => (newById.has(rule.id) ? [] : [{ index, rule }]));
  const changed: RuleChange[] = [];
  for (const rule of after.rules) {
    const old = oldById.get(rule.id)?.rule;
    if (!old) continue;
    const changes = changesBetween(old, rule, '');
    if (changes.length > 0) changed.push({ id: rule.id, before: old, after: rule, changes });
  }
  const orderBefore = before.rules.filter((r) => newById.has(r.id)).map((r) => r.id);
  const orderAfter = after.rules.filter((r) => oldById.has(r.id)).map((r) => r.id);
  const reordered = orderBefore.join('\n') !== orderAfter.join('\n');
  const sections = changesBetween(before, after, '', new Set(['rules']));
  return {
    unchanged: added.length === 0 && removed.length === 0 && changed.length === 0 && !reordered && sections.length === 0,
    rules: { added, removed, changed, reordered, orderBefore, orderAfter },
    sections,
  };
}
