import type { BranchDiff } from './session-format';

type Report = NonNullable<BranchDiff['a']['replay']>;

/**
 * The seqs to highlight on each side of a compare: on a replay, its report and the model turn
 * that diverged; on the replay's source, the recorded turn it diverged from (and its calls).
 */
export function divergenceSeqs(diff: BranchDiff): { a: Set<number>; b: Set<number> } {
  const out = { a: new Set<number>(), b: new Set<number>() };
  const mark = (replay: Report | null, own: Set<number>, other: Set<number>, otherId: string) => {
    const d = replay?.diverged;
    if (!d) return;
    own.add(d.seq).add(d.replayed.seq);
    for (const call of d.replayed.calls) own.add(call.seq);
    if (d.recorded && d.sourceSessionId === otherId) {
      other.add(d.recorded.seq);
      for (const call of d.recorded.calls) other.add(call.seq);
    }
  };
  mark(diff.a.replay, out.a, out.b, diff.b.sessionId);
  mark(diff.b.replay, out.b, out.a, diff.a.sessionId);
  return out;
}

const call = (c: { name: string; args: unknown }) => `${c.name}(${JSON.stringify(c.args)})`;

/** A replay branch's report: what it served from the log, and where (and how) it first diverged. */
export function ReplayReport({ report, label }: { report: Report; label: string }) {
  const d = report.diverged;
  return (
    <section
      className="mx-3 rounded border border-warning/40 bg-warning-soft px-3 py-2 text-xs"
      data-testid="compare-replay"
      data-side={label}
      data-mode={report.marker.mode}
      data-matched-turns={report.matchedTurns}
      data-served={report.servedResults}
      data-diverged-turn={d?.turn ?? ''}
    >
      <p className="font-semibold">
        {label.toUpperCase()} replays {report.marker.sourceSessionId} from #{report.marker.atEvent} ({report.marker.mode}): {report.matchedTurns} turn(s)
        agreed, {report.servedResults} tool result(s) served from the log.
      </p>
      {d ? (
        <div data-testid="compare-replay-divergence">
          <p>
            First divergence at turn {d.turn} (report #{d.seq}): {d.detail}
          </p>
          <p className="font-mono" data-testid="compare-replay-recorded">
            recorded{d.recorded ? ` #${d.recorded.seq}` : ''}:{' '}
            {d.recorded ? d.recorded.calls.map(call).join(', ') || '(no tool calls)' : '(the recording ended)'}
          </p>
          <p className="font-mono" data-testid="compare-replay-new">
            new #{d.replayed.seq}: {d.replayed.calls.map(call).join(', ') || '(no tool calls)'}
          </p>
        </div>
      ) : (
        <p data-testid="compare-replay-agrees">No divergence so far.</p>
      )}
    </section>
  );
}
