import type { RunConfigInput } from '../config/run-config';
import { createEvent } from '../events/create-event';
import { createScriptedModel, type ScriptTurn } from '../model/scripted-model';
import type { BudgetPort } from '../ports/budget-port';
import type { Clock } from '../ports/clock';
import type { EnginePorts } from '../ports/engine-ports';
import type { ModelPort, ModelRequest } from '../ports/model-port';
import type { PolicyPort } from '../ports/policy-port';
import type { SkillPort } from '../ports/skill-port';
import { InMemoryEventStore } from './in-memory-store';
import { allowAllPolicy, fixedClock, recordingModel, toolRunner, unlimitedBudget, type ToolHandler } from './ports';

export interface FixtureOptions {
  goal?: string;
  /** Merged over offline defaults (scripted model, deterministic compaction, 300 turns). */
  config?: Partial<RunConfigInput>;
  /** A scripted model from these turns, unless `model` is given. */
  script?: ScriptTurn[];
  model?: ModelPort;
  tools?: Record<string, ToolHandler>;
  policy?: PolicyPort;
  budget?: BudgetPort;
  clock?: Clock;
  /** Resolves team skills for `load_skill`. */
  skills?: SkillPort;
  /** An existing log to continue (run.started is not appended again). */
  store?: InMemoryEventStore;
}

export interface Fixture {
  ports: EnginePorts;
  store: InMemoryEventStore;
  requests: ModelRequest[];
  toolCalls: ReturnType<typeof toolRunner>['calls'];
}

/** Offline defaults for a run config in tests. */
export function testConfig(overrides: Partial<RunConfigInput> = {}): RunConfigInput {
  return {
    ...overrides,
    model: { model: 'scripted', contextWindow: 100_000, maxOutputTokens: 1000, ...overrides.model },
    compaction: { summarizer: 'deterministic', ...overrides.compaction },
    limits: { maxTurns: 300, ...overrides.limits },
  };
}

/** A run wired to in-memory ports, with `run.started` appended: drive it with `fixture.ports`. */
export async function startFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const clock = options.clock ?? fixedClock();
  const model = recordingModel(options.model ?? createScriptedModel(options.script ?? []));
  const tools = toolRunner(options.tools ?? {});
  const store = options.store ?? new InMemoryEventStore();
  if (store.lastSeq === 0) {
    await store.append([createEvent('run.started', { goal: options.goal ?? 'Do the task.', config: testConfig(options.config) }, clock)], 0);
  }
  const ports: EnginePorts = {
    store,
    model,
    tools,
    policy: options.policy ?? allowAllPolicy,
    budget: options.budget ?? unlimitedBudget(),
    clock,
    ...(options.skills ? { skills: options.skills } : {}),
  };
  return { ports, store, requests: model.requests, toolCalls: tools.calls };
}
