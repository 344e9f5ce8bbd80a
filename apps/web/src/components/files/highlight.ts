import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

// The languages agents mostly write; each grammar is a few KB, so the run page loads only these.
const LANGUAGES = { bash, css, diff, dockerfile, go, ini, javascript, json, makefile, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);

/** Files above this are shown plain: highlighting a huge file would stall the page. */
const MAX_HIGHLIGHT_CHARS = 200_000;

/** File names that say their language without an extension. */
const BY_NAME: Record<string, string> = { Dockerfile: 'dockerfile', Makefile: 'makefile', '.gitignore': 'bash', '.env': 'ini' };

/**
 * The highlight.js language of a workspace path, from its name or extension (through the
 * grammars' own aliases: `ts`, `py`, `yml`, `md`, `sh`, `html`, …); null when none is registered.
 */
export function languageOf(path: string): string | null {
  const name = path.split('/').pop() ?? '';
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = name.slice(dot + 1).toLowerCase();
  const language = hljs.getLanguage(ext);
  if (!language) return null;
  // getLanguage resolves aliases; the registered name is what the diff view takes as fileLang.
  return Object.keys(LANGUAGES).find((key) => hljs.getLanguage(key) === language) ?? null;
}

/**
 * The highlighted HTML of a file's text, or null when its language is unknown or it is too
 * large. highlight.js escapes the text it is given, so the result is safe as innerHTML.
 */
export function highlightFile(path: string, text: string): { html: string; language: string } | null {
  const language = languageOf(path);
  if (!language || text.length > MAX_HIGHLIGHT_CHARS) return null;
  return { html: hljs.highlight(text, { language, ignoreIllegals: true }).value, language };
}
