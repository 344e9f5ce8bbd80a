import Link from 'next/link';
import type { RouterOutputs } from '@/lib/api-types';

type Trigger = RouterOutputs['triggers']['list'][number];

/** What a delivery does, in words: which agent or graph it starts (and the goal template), or which run it messages. */
export function TriggerTarget(props: { trigger: Trigger; base: string; nameOf: (kind: 'agent' | 'graph', id: string) => string; full?: boolean }) {
  const { target } = props.trigger;
  if (target.type === 'message_run') {
    return (
      <span className="flex flex-col gap-0.5 text-xs" data-testid="trigger-target-text">
        <span>
          messages run{' '}
          <Link href={`${props.base}/runs/${target.runId}`} className="font-mono text-accent underline">
            {target.runId}
          </Link>
        </span>
        {props.full && target.messageTemplate ? <span className="whitespace-pre-wrap text-muted">{target.messageTemplate}</span> : null}
      </span>
    );
  }
  const kind = target.graphId ? 'graph' : 'agent';
  const id = target.graphId ?? target.agentId ?? '';
  return (
    <span className="flex flex-col gap-0.5 text-xs" data-testid="trigger-target-text">
      <span>
        starts a run of {kind} <span className="font-mono text-foreground">{props.nameOf(kind, id)}</span>
      </span>
      <span className={props.full ? 'whitespace-pre-wrap text-muted' : 'max-w-80 truncate text-muted'} title={target.goalTemplate}>
        {target.goalTemplate}
      </span>
    </span>
  );
}
