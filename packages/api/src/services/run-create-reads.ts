import type { Db } from '@looplane/db';
import type { ToolSpec } from '@looplane/engine';
import { mcpToolSpecs } from '../mcp/mcp-catalog';
import { assertEndpointsAllowed } from './policy-gates';

interface Slot<V> {
  /** Callers waiting for the next read of this key (not yet started). */
  waiting: Array<{ resolve: (value: V) => void; reject: (error: unknown) => void }>;
  inFlight: boolean;
  scheduled: boolean;
}

/**
 * Concurrent identical reads, shared: callers of one key that arrive while its read is in flight
 * wait and share the NEXT read (one per key at a time). What must stay true: every caller is
 * answered by a read that started after it asked, so nothing is served staler than a read of its
 * own — a policy or MCP change committed before a create arrived is seen by that create.
 */
export class SharedRead<V> {
  private slots = new Map<string, Slot<V>>();

  constructor(private readonly read: (key: string) => Promise<V>) {}

  get(key: string): Promise<V> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { waiting: [], inFlight: false, scheduled: false };
      this.slots.set(key, slot);
    }
    const promise = new Promise<V>((resolve, reject) => slot.waiting.push({ resolve, reject }));
    this.schedule(key, slot);
    return promise;
  }

  /** Starts at the end of this turn of the event loop, so callers of the same turn share the read. */
  private schedule(key: string, slot: Slot<V>): void {
    if (slot.inFlight || slot.scheduled) return;
    slot.scheduled = true;
    setImmediate(() => {
      slot.scheduled = false;
      this.start(key, slot);
    });
  }

  private start(key: string, slot: Slot<V>): void {
    const callers = slot.waiting;
    slot.waiting = [];
    slot.inFlight = true;
    this.read(key)
      .then(
        (value) => {
          for (const c of callers) c.resolve(value);
        },
        (error: unknown) => {
          for (const c of callers) c.reject(error);
        },
      )
      .finally(() => {
        slot.inFlight = false;
        if (slot.waiting.length > 0) this.start(key, slot);
        else this.slots.delete(key);
      });
  }
}

/** The per-team reads every create makes besides its agent: the policy gate and the team's MCP tools. */
export interface CreateReads {
  /** Resolves when the team's active policy allows the agent's endpoint; rejects with the gate's error otherwise. */
  endpointAllowed(teamId: string, agentName: string, endpointName: string): Promise<void>;
  mcpTools(teamId: string): Promise<ToolSpec[]>;
}

const reads = new WeakMap<Db, CreateReads>();

/** The process's shared create reads for a database client. */
export function createReads(db: Db): CreateReads {
  let shared = reads.get(db);
  if (!shared) {
    // JSON keys: team, agent and endpoint names are free text, so no separator could be trusted.
    const gate = new SharedRead<void>((key) => {
      const [teamId, agentName, endpointName] = JSON.parse(key) as [string, string, string];
      return assertEndpointsAllowed(db, teamId, [{ agentName, endpointName }]);
    });
    const tools = new SharedRead<ToolSpec[]>((teamId) => mcpToolSpecs(db, teamId));
    shared = {
      endpointAllowed: (teamId, agentName, endpointName) => gate.get(JSON.stringify([teamId, agentName, endpointName])),
      mcpTools: (teamId) => tools.get(teamId),
    };
    reads.set(db, shared);
  }
  return shared;
}
