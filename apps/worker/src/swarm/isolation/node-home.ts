import { createHash } from 'node:crypto';

/** Separates a main queue prefix from a node's own suffix. */
const MARK = '--iso-';

/**
 * The queue prefix of a `process` node's dedicated worker process: the main prefix plus a short
 * hash of the graph and node (stable, so every worker routes a node's jobs to the same queue).
 */
export function isolatedPrefix(mainPrefix: string, graphId: string, nodeKey: string): string {
  return `${mainPrefix}${MARK}${createHash('sha256').update(`${graphId}:${nodeKey}`).digest('hex').slice(0, 12)}`;
}

/** The main prefix a prefix belongs to (itself for a main prefix). */
export function mainPrefixOf(prefix: string): string {
  const at = prefix.indexOf(MARK);
  return at === -1 ? prefix : prefix.slice(0, at);
}
