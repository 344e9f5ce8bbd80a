import { HOME, resolvePath } from '../workspace-paths';
import { checkCodeRunner } from './code-runners';
import { checkDestructive } from './destructive-rules';
import { checkFileEffects } from './file-effects';
import { checkHiddenEffects } from './hidden-effects';
import { classifyCodeRunner } from './run-code';
import { type Frame, type ScanState, MAX_DEPTH, dynamic } from './scan-state';
import type { ResolvedWord } from './words';
import { isWrapper, unwrap } from './wrappers';

/** argv[0] without its directory: `/usr/bin/rm` runs `rm`. */
function programName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/**
 * Classifies one simple command: records it, then follows wrappers to the command they run,
 * parses code handed to shells and `eval`, and applies the destructive, runs-code and file-write rules.
 * A command whose name is not static (`$x -rf /`, `$(echo rm)`, `r*`) is unclassifiable.
 */
export function classifyCommand(words: ResolvedWord[], frame: Frame, state: ScanState, via: string[]): void {
  const head = words[0];
  if (!head) return;
  const argv = words.map((w) => w.text);
  const label = words.map((w) => w.source).join(' ');
  if (!head.static || head.expands) {
    state.commands.push({ name: null, argv, via, depth: frame.depth });
    dynamic(state, label, `the command name ${head.source} is not static, so what runs cannot be known`);
    return;
  }
  const name = programName(head.text);
  state.commands.push({ name, argv, via, depth: frame.depth });
  if (frame.depth > MAX_DEPTH) {
    dynamic(state, label, `nested more than ${MAX_DEPTH} levels deep`);
    return;
  }
  if (isWrapper(name)) {
    // busybox runs the applet named by its first argument.
    if (name === 'busybox') state.classify(words.slice(1), frame, [...via, name]);
    else unwrap(name, words, frame, state, via);
    return;
  }
  if (classifyCodeRunner(name, words, frame, state)) return;
  checkDestructive(name, words, frame, state);
  checkCodeRunner(name, words, frame, state);
  checkFileEffects(name, words, frame, state);
  checkHiddenEffects(name, words, frame, state);
  trackDirectory(name, words, state);
}

/** Follows `cd`/`pushd`/`popd` so later relative writes are judged where they really land. */
function trackDirectory(name: string, words: ResolvedWord[], state: ScanState): void {
  if (name !== 'cd' && name !== 'pushd' && name !== 'popd') return;
  const target = words.slice(1).find((w) => !w.text.startsWith('-') || w.text === '-');
  if (name === 'popd' || target?.text === '-') state.cwd = null;
  else if (!target) state.cwd = HOME;
  else if (!target.static) state.cwd = null;
  else state.cwd = resolvePath(target.text, state.cwd, state.root).absolute;
}
