import { loadSessionEvents, type Queryable } from '@looplane/db';
import { recordingFrom, recordingOf, type RecordedTurn, type ReplayRecording, type RunState, type ToolRunner } from '@looplane/engine';

/**
 * A replay branch's recording: its source session's log after the replay's start, read once per
 * job on first use (through the session's own connection) and then served from memory. The
 * source may be any session of the run, a branch or another replay included.
 */
export function replayRecording(reader: Queryable, replay: NonNullable<RunState['replay']>): ReplayRecording {
  let turns: Promise<ReplayRecording> | null = null;
  const load = async () => recordingFrom(recordingOf(await loadSessionEvents(reader, replay.sourceSessionId), replay.atEvent));
  return {
    async turn(index: number): Promise<RecordedTurn | null> {
      turns ??= load();
      return (await turns).turn(index);
    },
  };
}

/**
 * A replay's first live tool call in a job waits until the results served before it are durable
 * (`flush`): its workspace is prepared at the commit the log last recorded, a served one included.
 */
export function replayTools(state: RunState, flush: () => Promise<void>, tools: ToolRunner): ToolRunner {
  if (!state.replay) return tools;
  let durable = false;
  const wrapped: ToolRunner = {
    run: async (call, options) => {
      if (!durable) await flush();
      durable = true;
      return tools.run(call, options);
    },
  };
  if (tools.applyHeld) wrapped.applyHeld = tools.applyHeld.bind(tools);
  return wrapped;
}
