import type { PgBudgetLedger, PgEventStore, WriteUnit } from '@looplane/db';
import type { Clock, EnginePorts, ModelPort, PolicyPort, SkillPort, ToolRunner } from '@looplane/engine';
import { failingModel } from './model-factory';

export interface SessionPortsOptions {
  store: PgEventStore;
  budget: PgBudgetLedger;
  unit: WriteUnit;
  model: ModelPort;
  tools: ToolRunner;
  /** The team's policy for this session (see `team-policy.ts`). */
  policy: PolicyPort;
  /** Resolves once the call's policy decision is in the audit chain (awaited before the side effect). */
  policyRecorded?: (callId: string) => Promise<void>;
  clock: Clock;
  /** Epoch ms after which no model call is made (the run's wall-time budget); null: none. */
  deadline: number | null;
  /** The run's tool-call limit; when set, each call is counted on the ledger before it runs. */
  limitCalls: number | null;
  /** The run ledger has a token or cost limit: a model call waits until its reservation is durable. */
  limitedSpend: boolean;
  /** Whether a catalogue tool may safely run twice (from the run config). */
  idempotent: (tool: string) => boolean;
  /** Resolves team skills for `load_skill` (their files are written like a call's). */
  skills?: SkillPort;
}

/**
 * The engine's ports for one session. Model and tool calls are the side effects: the write unit
 * commits what the session buffered before each of them, and they run with appends flushed at
 * once (streamed deltas show live). A non-idempotent tool, and a model call whose reservation
 * pre-authorises spend on a limited ledger, start only once that commit is done; an idempotent
 * tool or a model call on an unlimited budget starts while it commits (running it twice after a
 * crash is allowed; if the commit is refused, the next append fails and the drive with it).
 */
export function sessionPorts(options: SessionPortsOptions): EnginePorts {
  const { unit, budget, deadline } = options;
  const model: ModelPort = {
    complete(request, callOptions) {
      if (deadline !== null && options.clock.now() >= deadline) {
        return failingModel('timeout', "the run's wall-time budget is spent").complete(request, callOptions);
      }
      return unit.sideEffect(() => options.model.complete(request, callOptions), { repeatable: !options.limitedSpend });
    },
  };
  const tools: ToolRunner = {
    async run(call, callOptions) {
      if (options.limitCalls !== null) {
        const counted = await budget.countToolCall(`tool:${call.callId}`);
        if (!counted.granted) return { ok: false, output: `not run: the run's budget of ${counted.limit} tool calls is used up` };
      }
      const repeatable = options.idempotent(call.name);
      // No call runs before its decision is in the audit chain. A repeatable call's events are
      // written in the background anyway, so it waits for the row before it starts: one that
      // answers at once then lets its events and the next step's (the model call's reservation and
      // request) ride in one write. Any other call waits inside the effect, overlapping the row's
      // write with the commit of `policy.decided` that the effect waits for first.
      if (repeatable) await options.policyRecorded?.(call.callId);
      const recorded = repeatable ? undefined : options.policyRecorded;
      return unit.sideEffect(
        async () => {
          await recorded?.(call.callId);
          return options.tools.run(call, callOptions);
        },
        { repeatable },
      );
    },
  };
  // Applying a kept result is idempotent: it may run while the approval's events commit.
  const applyHeld = options.tools.applyHeld?.bind(options.tools);
  if (applyHeld) tools.applyHeld = (call, callOptions) => unit.sideEffect(() => applyHeld(call, callOptions), { repeatable: true });
  // Loading a skill writes its files: a side effect like a tool's, and repeatable (the same files again).
  const skillPort = options.skills;
  const skills: SkillPort | undefined = skillPort && {
    load: (request, callOptions) => unit.sideEffect(() => skillPort.load(request, callOptions), { repeatable: true }),
  };
  return { store: options.store, budget, model, tools, policy: options.policy, clock: options.clock, ...(skills ? { skills } : {}) };
}
