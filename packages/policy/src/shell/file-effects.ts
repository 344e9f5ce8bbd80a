import { checkAwk } from './awk-command';
import { stdinIsEmpty } from './empty-output';
import { type OptionSpec, hasOption, optionValue, parseOptions } from './options';
import { type Frame, type ScanState, destructive, dynamic, runsCode } from './scan-state';
import { sedScriptEffects } from './sed-script';
import { type ResolvedWord, literalWord } from './words';
import { checkEmptiedPath, checkWritePath } from './write-targets';

/**
 * What common tools write, and what `find` and the text tools run. Options are read with a
 * spec; an option outside it makes the write targets unknown, which is reported as dynamic.
 */

const COPY_SPEC: OptionSpec = {
  shortValue: 'tSm',
  shortFlags: 'abdfiHlLnPprRsTuvxZ',
  longValue: ['--target-directory', '--suffix', '--backup', '--preserve', '--no-preserve', '--sparse', '--reflink', '--mode', '--context'],
  longFlags: [
    '--archive',
    '--force',
    '--interactive',
    '--no-clobber',
    '--recursive',
    '--symbolic',
    '--verbose',
    '--update',
    '--parents',
    '--no-target-directory',
    '--remove-destination',
    '--link',
    '--dereference',
    '--no-dereference',
    '--strip-trailing-slashes',
    '--one-file-system',
    '--relative',
    '--logical',
    '--physical',
  ],
};
const SIMPLE_SPEC: OptionSpec = {
  shortValue: 'mdtr',
  shortFlags: 'acfhpvmnP',
  longValue: ['--mode', '--date', '--reference', '--context'],
  longFlags: ['--parents', '--verbose', '--no-create', '--no-dereference', '--append', '--ignore-interrupts'],
};

function operands(words: ResolvedWord[], spec: OptionSpec, state: ScanState, label: string, name: string) {
  const parsed = parseOptions(words, 1, spec);
  if (parsed.unknown) {
    dynamic(state, label, `${name} option ${parsed.unknown} is not known, so what it writes is not known`);
    return null;
  }
  return { parsed, operands: words.slice(parsed.operandIndex) };
}

/** cp/mv/ln/install write their destination; mv also removes its sources; copying only /dev/null empties it. */
function copyLike(name: string, words: ResolvedWord[], state: ScanState, label: string): void {
  const read = operands(words, COPY_SPEC, state, label, name);
  if (!read) return;
  const target = optionValue(read.parsed, '-t', '--target-directory');
  const destinations = target ? [target] : read.operands.slice(-1);
  const sources = target ? read.operands : read.operands.slice(0, -1);
  if (name !== 'mv' && sources.length > 0 && sources.every((w) => w.static && w.text === '/dev/null')) {
    for (const word of destinations) checkEmptiedPath(state, word, label);
    return;
  }
  const written = name === 'mv' ? [...read.operands, ...(target ? [target] : [])] : destinations;
  for (const word of written) checkWritePath(state, word, label, name === 'mv' ? 'moves' : 'writes');
}

/** Writes a file operand list outright (tee, touch, mkdir); `tee` with nothing to read (`tee f </dev/null`) empties its files. */
function writesOperands(name: string, words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  const read = operands(words, SIMPLE_SPEC, state, label, name);
  if (!read) return;
  const empties = name === 'tee' && !hasOption(read.parsed, '-a', '--append') && stdinIsEmpty(frame.stdin);
  for (const word of read.operands) {
    if (empties) checkEmptiedPath(state, word, label);
    else checkWritePath(state, word, label);
  }
}

/** `find`: -delete removes; -exec and friends run a command, classified with `{}` (a file name) as not static. */
function find(words: ResolvedWord[], frame: Frame, state: ScanState, label: string): void {
  for (let i = 1; i < words.length; i++) {
    const text = (words[i] as ResolvedWord).text;
    if (text === '-delete') destructive(state, label, 'find -delete removes files');
    if (/^-(fprint0?|fprintf|fls)$/.test(text) && words[i + 1]) checkWritePath(state, words[i + 1] as ResolvedWord, label);
    if (!/^-(exec|execdir|ok|okdir)$/.test(text)) continue;
    const end = words.findIndex((w, j) => j > i && (w.text === ';' || w.text === '+'));
    const inner = words.slice(i + 1, end === -1 ? words.length : end).map((w) => (w.text.includes('{}') ? { ...w, static: false } : w));
    if (inner.length > 0) state.classify(inner, frame, ['find']);
    i = end === -1 ? words.length : end;
  }
}

const SED_OPTIONS: OptionSpec = {
  shortValue: 'efl',
  shortFlags: 'nrEsuzi',
  shortOptional: 'i',
  longValue: ['--expression', '--file', '--line-length'],
  longFlags: [
    '--quiet',
    '--silent',
    '--regexp-extended',
    '--separate',
    '--unbuffered',
    '--null-data',
    '--posix',
    '--debug',
    '--sandbox',
    '--follow-symlinks',
    '--in-place',
  ],
};

function sed(words: ResolvedWord[], state: ScanState, label: string): void {
  const read = operands(words, SED_OPTIONS, state, label, 'sed');
  if (!read) return;
  const { parsed } = read;
  const scripts = parsed.options.filter((o) => o.name === '-e' || o.name === '--expression').map((o) => o.value?.text ?? '');
  const scriptFiles = parsed.options.filter((o) => o.name === '-f' || o.name === '--file').map((o) => o.value?.text ?? '');
  // Without -e or -f the first operand is the script; with either, every operand is a file.
  const fromOperand = scripts.length === 0 && scriptFiles.length === 0;
  const files = fromOperand ? read.operands.slice(1) : read.operands;
  if (fromOperand && read.operands[0]) scripts.push(read.operands[0].text);
  for (const file of scriptFiles) runsCode(state, label, `sed runs the script file ${file}, whose e and w commands can run commands and write files`);
  // The -e fragments are one script, joined by newlines (`-e 'a\' -e text` continues a line).
  const effects = scripts.length > 0 ? sedScriptEffects(scripts.join('\n')) : null;
  if (effects?.unreadable) {
    dynamic(state, label, 'the sed script could not be read, so whether it runs commands (e) is not known');
    runsCode(state, label, 'the sed script may run commands (e)');
  } else if (effects?.executes) {
    dynamic(state, label, 'the sed script runs a command (e), which cannot be classified');
    runsCode(state, label, 'the sed script runs a command (e)');
  }
  for (const file of effects?.writes ?? []) checkWritePath(state, literalWord(file), label);
  const inPlace = parsed.options.some((o) => o.name === '-i' || o.name === '--in-place');
  const emptiesFiles = scriptFiles.length === 0 && effects?.deletesAll === true;
  for (const file of inPlace ? files : []) {
    if (emptiesFiles) checkEmptiedPath(state, file, label);
    else checkWritePath(state, file, label, 'edits');
  }
}

/** `truncate -s SIZE FILE...` cuts or empties each file. */
function truncate(words: ResolvedWord[], state: ScanState, label: string): void {
  const read = operands(
    words,
    { shortValue: 'sr', shortFlags: 'co', longValue: ['--size', '--reference'], longFlags: ['--no-create', '--io-blocks'] },
    state,
    label,
    'truncate',
  );
  for (const file of read?.operands ?? []) checkEmptiedPath(state, file, label, 'truncates');
}

/**
 * Judges the writes and nested commands of `name`, if it is one of the tools this module knows;
 * returns nothing either way (the caller also runs the destructive table).
 */
export function checkFileEffects(name: string, words: ResolvedWord[], frame: Frame, state: ScanState): void {
  const label = words.map((w) => w.source).join(' ');
  switch (name) {
    case 'cp':
    case 'mv':
    case 'ln':
    case 'install':
      return copyLike(name, words, state, label);
    case 'tee':
    case 'touch':
    case 'mkdir':
      return writesOperands(name, words, frame, state, label);
    case 'find':
      return find(words, frame, state, label);
    case 'sed':
      return sed(words, state, label);
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
      return checkAwk(name, words, frame, state, label);
    case 'truncate':
      return truncate(words, state, label);
    case 'rsync': {
      if (words.some((w) => w.text.startsWith('--delete') || w.text === '--remove-source-files')) destructive(state, label, 'rsync deletes files');
      const last = words.at(-1);
      if (last && words.length > 2 && !last.text.includes(':')) checkWritePath(state, last, label);
      return;
    }
    case 'tar': {
      const extract = words.some((w, i) => w.text === '--extract' || w.text === '-x' || (i === 1 && /^-?[a-zA-Z]*x/.test(w.text)));
      const dir = words.findIndex((w) => w.text === '-C' || w.text === '--directory');
      if (extract && dir !== -1 && words[dir + 1]) checkWritePath(state, words[dir + 1] as ResolvedWord, label, 'extracts into');
      if (words.some((w) => w.text === '-P' || w.text === '--absolute-names')) destructive(state, label, 'tar -P writes absolute paths');
      return;
    }
    case 'unzip': {
      const dir = words.findIndex((w) => w.text === '-d');
      if (dir !== -1 && words[dir + 1]) checkWritePath(state, words[dir + 1] as ResolvedWord, label, 'extracts into');
      return;
    }
    case 'curl':
    case 'wget': {
      const flags = name === 'curl' ? ['-o', '--output'] : ['-O', '--output-document'];
      words.forEach((w, i) => {
        if (flags.includes(w.text) && words[i + 1]) checkWritePath(state, words[i + 1] as ResolvedWord, label);
        else if (flags.some((f) => f.startsWith('--') && w.text.startsWith(`${f}=`)))
          checkWritePath(state, { ...w, text: w.text.slice(w.text.indexOf('=') + 1) }, label);
      });
      return;
    }
    default:
      return;
  }
}
