import type { ToolSpec } from '@looplane/engine';

/** The blackboard's tool names (the worker executes them; a node's catalogue lists them). */
export const MEMORY_TOOLS = { get: 'memory_get', set: 'memory_set', list: 'memory_list' } as const;

/**
 * The catalogue entries of the blackboard tools for a node that may read and/or write it. Reads
 * are idempotent; a write is not (it is a compare-and-set on the key's version).
 */
export function memoryToolSpecs(access: { read: boolean; write: boolean }): ToolSpec[] {
  const specs: ToolSpec[] = [];
  if (access.read) {
    specs.push(
      {
        name: MEMORY_TOOLS.get,
        description: "Read a key of the run's shared memory: returns its value and version (0: not set).",
        parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
        idempotent: true,
      },
      {
        name: MEMORY_TOOLS.list,
        description: "List the keys of the run's shared memory you may read, with their versions.",
        parameters: { type: 'object', properties: { prefix: { type: 'string' } } },
        idempotent: true,
      },
    );
  }
  if (access.write) {
    specs.push({
      name: MEMORY_TOOLS.set,
      description:
        "Write a key of the run's shared memory (compare-and-set): give the version you read (0 for a new key); " +
        'if someone wrote it meanwhile, nothing is written and the current version is returned.',
      parameters: {
        type: 'object',
        properties: { key: { type: 'string' }, value: {}, expectedVersion: { type: 'integer', minimum: 0 } },
        required: ['key', 'value', 'expectedVersion'],
      },
      idempotent: false,
    });
  }
  return specs;
}
