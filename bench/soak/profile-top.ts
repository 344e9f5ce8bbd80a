import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The frames a V8 CPU profile (`node --cpu-prof`) spent its time in, by self time: what ran on the
 * CPU in that function, not in what it called. Frames of one function (name, file, line) are
 * summed over the call tree; `(idle)` is time the process waited and is left out of the shares.
 *
 *   npx tsx bench/soak/profile-top.ts /tmp/prof            # the newest .cpuprofile in the folder
 *   npx tsx bench/soak/profile-top.ts worker.cpuprofile --top 30 --out top.json
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

interface Frame {
  name: string;
  where: string;
  selfMs: number;
  /** Share of the busy time (all samples but idle). */
  share: number;
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' }, out: { type: 'string' } } });
const target = positionals[0];
if (!target) throw new Error('usage: profile-top.ts <file.cpuprofile | folder> [--top N] [--out file.json]');

function newestProfile(path: string): string {
  if (!statSync(path).isDirectory()) return path;
  const files = readdirSync(path)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(path, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!files[0]) throw new Error(`no .cpuprofile in ${path}`);
  return files[0];
}

/** `packages/db/src/runs/write-unit.ts:120`, `node:internal/…`, or the bundle's file and line. */
function whereOf(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  const repo = url.indexOf('/node_modules/');
  const short = repo >= 0 ? url.slice(repo + 1) : url.replace(/^.*\/(apps|packages|bench)\//, '$1/');
  return short ? `${short}:${frame.lineNumber + 1}` : '(native)';
}

const file = newestProfile(target);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, ProfileNode>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
/** A native frame's time belongs to the code that called it (a socket write, a log line), past Node's own frames. */
function callerOf(node: ProfileNode): ProfileNode | null {
  let at: ProfileNode | undefined = node;
  while (at && (!at.callFrame.url || at.callFrame.url.startsWith('node:'))) at = parentOf.get(at.id);
  return at ?? null;
}
const native = new Map<string, { name: string; where: string; us: number }>();
const self = new Map<string, { name: string; where: string; us: number }>();
let busyUs = 0;
let idleUs = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const us = profile.timeDeltas[i] ?? 0;
  if (!node) return;
  if (node.callFrame.functionName === '(idle)') {
    idleUs += us;
    return;
  }
  busyUs += us;
  const where = whereOf(node.callFrame);
  const name = node.callFrame.functionName || '(anonymous)';
  const key = `${name}@${where}`;
  const entry = self.get(key) ?? { name, where, us: 0 };
  entry.us += us;
  self.set(key, entry);
  if (!node.callFrame.url) {
    const caller = callerOf(node);
    const callerName = caller ? `${name} ← ${caller.callFrame.functionName || '(anonymous)'}` : name;
    const callerWhere = caller ? whereOf(caller.callFrame) : where;
    const k = `${callerName}@${callerWhere}`;
    const e = native.get(k) ?? { name: callerName, where: callerWhere, us: 0 };
    e.us += us;
    native.set(k, e);
  }
});

const ranked = (frames: Map<string, { name: string; where: string; us: number }>) =>
  [...frames.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, Number(values.top))
    .map<Frame>((f) => ({ name: f.name, where: f.where, selfMs: Math.round(f.us) / 1000, share: busyUs > 0 ? f.us / busyUs : 0 }));
const top = ranked(self);
const nativeByCaller = ranked(native);
const print = (f: Frame) => console.log(`${(f.share * 100).toFixed(1).padStart(5)} %  ${f.selfMs.toFixed(1).padStart(9)} ms  ${f.name}  ${f.where}`);

console.log(`${file}: busy ${(busyUs / 1e6).toFixed(2)} s, idle ${(idleUs / 1e6).toFixed(2)} s`);
top.forEach(print);
console.log('\nnative time, by the code outside Node that called it:');
nativeByCaller.forEach(print);
if (values.out) writeFileSync(values.out, `${JSON.stringify({ profile: file, busyMs: busyUs / 1000, idleMs: idleUs / 1000, top, nativeByCaller }, null, 2)}\n`);
