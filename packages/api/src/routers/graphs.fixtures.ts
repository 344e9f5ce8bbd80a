import type { ApiDeps } from '../context';
import { callerAs } from '../testing/fixtures';

let made = 0;

/** A valid two-node definition (planner → researcher) over one agent of the team. */
export function graphDefinitionFor(agentId: string) {
  return {
    root: 'planner',
    nodes: [
      { key: 'planner', agentId },
      { key: 'researcher', agentId, writePrefixes: ['notes/'] },
    ],
    edges: [{ from: 'planner', to: 'researcher', purpose: 'research a question', budget: { tokens: 10_000, calls: 3, maxConcurrent: 1 } }],
  };
}

const cache = new Map<string, Promise<{ graphId: string; runId: string; edgeId: string }>>();

/**
 * A graph of the team made through the API (as `userId`), and one run of it: for tests that
 * need an existing graph, graph run and edge. Made once per team and database.
 */
export function graphFixture(deps: ApiDeps, teamId: string, userId: string, agentId: string) {
  const key = `${teamId}:${agentId}`;
  let found = cache.get(key);
  if (!found) {
    found = (async () => {
      const api = await callerAs(deps, { userId });
      const graph = await api.graphs.create({ teamId, name: `graph-${Date.now()}-${made++}`, definition: graphDefinitionFor(agentId) });
      const { runId } = await api.runs.create({ teamId, graphId: graph.id, goal: 'fixture graph run' });
      return { graphId: graph.id, runId, edgeId: graph.edges[0]!.id };
    })();
    cache.set(key, found);
  }
  return found;
}

/** A fresh graph name. */
export function graphName(): string {
  return `graph-${Date.now()}-${made++}`;
}
