// Swarm graphs: edge rules, a run's graph snapshot, the path ledger, delegations and the blackboard.
export * from './swarm-rules';
export * from './swarm-snapshot';
export { filterCrossing, type FilteredCrossing } from './crossing-filter';
export { PgPathLedger, pathHasRoom } from './path-ledger';
export { spawnDelegation, parseSwarm, type DelegationRequest, type SpawnOutcome } from './delegation-spawn';
export {
  recordReturn,
  returnedDelegations,
  delegatedChildren,
  sessionsWaitingOnChildren,
  type ReturnedDelegation,
  type RecordedReturn,
} from './delegation-return';
export { memoryGet, memoryList, memorySet, type MemoryValue } from './memory-store';
export { MEMORY_TOOLS, memoryToolSpecs } from './memory-tools';
export { seedDemoGraph, DEMO_GRAPH_NAME } from '../seed-demo-graph';
export { graphRunTrips, graphRunSpend, graphRunDelegationsInFlight, type GraphRunTrip } from './graph-run-measures.repository';
