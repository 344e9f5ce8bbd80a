import { describe, expect, it } from 'vitest';
import { highlightFile, languageOf } from './highlight';

describe('languageOf', () => {
  it('reads the language from the extension, through the grammars’ aliases', () => {
    expect(languageOf('src/app.ts')).toBe('typescript');
    expect(languageOf('notes/plan.md')).toBe('markdown');
    expect(languageOf('config/ci.yml')).toBe('yaml');
    expect(languageOf('scripts/run.sh')).toBe('bash');
    expect(languageOf('page.html')).toBe('xml');
    expect(languageOf('main.PY')).toBe('python');
  });

  it('knows a few names without an extension, and nothing else', () => {
    expect(languageOf('docker/Dockerfile')).toBe('dockerfile');
    expect(languageOf('Makefile')).toBe('makefile');
    expect(languageOf('notes/log.txt')).toBeNull();
    expect(languageOf('LICENSE')).toBeNull();
    expect(languageOf('.bashrc')).toBeNull();
  });
});

describe('highlightFile', () => {
  it('marks tokens up and escapes the text', () => {
    const out = highlightFile('a.ts', 'const x = "<b>";\n');
    expect(out?.language).toBe('typescript');
    expect(out?.html).toContain('<span class="hljs-keyword">const</span>');
    expect(out?.html).toContain('&lt;b&gt;');
    expect(out?.html).not.toContain('<b>');
  });

  it('leaves unknown languages and huge files plain', () => {
    expect(highlightFile('notes/log.txt', 'one\n')).toBeNull();
    expect(highlightFile('big.json', '1'.repeat(200_001))).toBeNull();
  });
});
