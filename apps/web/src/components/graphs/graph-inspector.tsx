'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Input, Select, Textarea } from '@/components/ui/field';
import type { DraftEdge, DraftNode } from './graph-types';

const list = (text: string) =>
  text
    .split(',')
    .map((p) => p.trim())
    .filter((p, _i, all) => p !== '' || all.length === 1);

/** A node's agent, isolation and blackboard prefixes. */
export function NodeInspector({
  node,
  agents,
  isRoot,
  onChange,
  onRemove,
  onMakeRoot,
}: {
  node: DraftNode;
  agents: { id: string; name: string }[];
  isRoot: boolean;
  onChange: (node: DraftNode) => void;
  onRemove: () => void;
  onMakeRoot: () => void;
}) {
  return (
    <div className="flex flex-col gap-3" data-testid="node-inspector">
      <p className="text-sm font-medium">
        Node <span className="font-mono">{node.key}</span>
        {isRoot ? ' (root: receives the goal)' : ''}
      </p>
      <Field label="Agent" htmlFor="node-agent">
        <Select id="node-agent" value={node.agentId} onChange={(e) => onChange({ ...node, agentId: e.target.value })} data-testid="node-agent">
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Isolation" htmlFor="node-isolation" hint="process: each session of this node runs in a worker process of its own">
        <Select
          id="node-isolation"
          value={node.isolation ?? 'shared'}
          onChange={(e) => onChange({ ...node, isolation: e.target.value as 'shared' | 'process' })}
          data-testid="node-isolation"
        >
          <option value="shared">shared</option>
          <option value="process">process</option>
        </Select>
      </Field>
      <Field
        label="Sandbox at least"
        htmlFor="node-minimum-driver"
        hint="the least isolation this node's calls run with (bwrap < podman < gvisor < microvm); the stronger of it and its agent's driver applies"
      >
        <Select
          id="node-minimum-driver"
          value={node.minimumDriver ?? ''}
          onChange={(e) => onChange({ ...node, minimumDriver: e.target.value ? (e.target.value as 'bwrap' | 'podman' | 'gvisor' | 'microvm') : null })}
          data-testid="node-minimum-driver"
        >
          <option value="">its agent&apos;s</option>
          <option value="bwrap">bwrap</option>
          <option value="podman">podman</option>
          <option value="gvisor">gvisor</option>
          <option value="microvm">microvm</option>
        </Select>
      </Field>
      <Field label="Memory read prefixes" htmlFor="node-read" hint="comma-separated; empty: no access">
        <Input
          id="node-read"
          defaultValue={(node.readPrefixes ?? []).join(', ')}
          onBlur={(e) => onChange({ ...node, readPrefixes: e.target.value.trim() ? list(e.target.value) : [] })}
        />
      </Field>
      <Field label="Memory write prefixes" htmlFor="node-write">
        <Input
          id="node-write"
          defaultValue={(node.writePrefixes ?? []).join(', ')}
          onBlur={(e) => onChange({ ...node, writePrefixes: e.target.value.trim() ? list(e.target.value) : [] })}
        />
      </Field>
      <div className="flex gap-2">
        {!isRoot ? (
          <Button size="sm" onClick={onMakeRoot}>
            Make root
          </Button>
        ) : null}
        <Button size="sm" variant="danger-ghost" onClick={onRemove} data-testid="node-remove">
          Remove node
        </Button>
      </div>
    </div>
  );
}

/**
 * An edge's purpose and rules. The rules are edited as JSON (budget, approval, data); the server
 * checks them and says exactly what is wrong (a redaction pattern that does not compile, a limit
 * out of range).
 */
export function EdgeInspector({ edge, onChange, onRemove }: { edge: DraftEdge; onChange: (edge: DraftEdge) => void; onRemove: () => void }) {
  const rulesOf = (e: DraftEdge) =>
    JSON.stringify({ budget: e.budget ?? {}, approval: e.approval ?? { mode: 'never' }, data: e.data ?? { redact: [] } }, null, 2);
  const [text, setText] = useState(rulesOf(edge));
  const [invalid, setInvalid] = useState<string | null>(null);
  const apply = (value: string) => {
    setText(value);
    try {
      const parsed = JSON.parse(value) as Pick<DraftEdge, 'budget' | 'approval' | 'data'>;
      setInvalid(null);
      onChange({ ...edge, budget: parsed.budget, approval: parsed.approval, data: parsed.data });
    } catch (error) {
      setInvalid((error as Error).message);
    }
  };
  return (
    <div className="flex flex-col gap-3" data-testid="edge-inspector">
      <p className="text-sm font-medium">
        Edge{' '}
        <span className="font-mono">
          {edge.from} → {edge.to}
        </span>
      </p>
      <Field label="Purpose" htmlFor="edge-purpose" hint="shown to the delegating model in its delegate tool">
        <Input id="edge-purpose" value={edge.purpose} onChange={(e) => onChange({ ...edge, purpose: e.target.value })} data-testid="edge-purpose" />
      </Field>
      <Field
        label="Rules"
        htmlFor="edge-rules"
        hint='budget: { tokens, costMicros, calls, maxConcurrent }; approval: { mode: "never" | "always" | "aboveCost", costMicros }; data: { maxBytesIn, maxBytesOut, redact: [regex] }'
      >
        <Textarea id="edge-rules" rows={12} className="font-mono text-xs" value={text} onChange={(e) => apply(e.target.value)} data-testid="edge-rules" />
      </Field>
      {invalid ? (
        <p className="text-xs text-danger" data-testid="edge-rules-invalid">
          Not JSON: {invalid}
        </p>
      ) : null}
      <Button size="sm" variant="danger-ghost" onClick={onRemove}>
        Remove edge
      </Button>
    </div>
  );
}
