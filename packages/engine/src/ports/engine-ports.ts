import type { BudgetPort } from './budget-port';
import type { Clock } from './clock';
import type { EventStore } from './event-store';
import type { ModelPort } from './model-port';
import type { PolicyPort } from './policy-port';
import type { ToolRunner } from './tool-port';
import type { ReplayRecording } from './replay-port';
import type { SkillPort } from './skill-port';

/** Everything the engine reaches outside itself. It imports no IO module; these are passed in. */
export interface EnginePorts {
  store: EventStore;
  model: ModelPort;
  tools: ToolRunner;
  policy: PolicyPort;
  budget: BudgetPort;
  clock: Clock;
  /** Resolves team skills for `load_skill`; without it only a seeded repository's skills load. */
  skills?: SkillPort;
  /** A replay branch's recording (its source session's log); only replays need it. */
  replay?: ReplayRecording;
}
