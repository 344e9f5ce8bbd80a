'use client';

import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState, type Text } from '@codemirror/state';
import { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { CodeIssue } from '@/lib/code-issues';
import { cn } from '@/lib/cn';
import { codeHighlight, codeTheme } from './code-editor-theme';

export type CodeLanguage = 'json' | 'yaml';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language: CodeLanguage;
  /** Problems to mark in the gutter and underline at their line and column. */
  issues: readonly CodeIssue[];
  /** The accessible name: a label's id (preferred, the label stays visible) or the text itself. */
  labelledBy?: string;
  label?: string;
  /** Id of the element listing the problems, read out with the editor. */
  describedBy?: string;
  readOnly?: boolean;
  /** On the wrapper; the current text is also in a hidden input with `${testId}-value`. */
  testId: string;
  /** The hidden input's name, so a form's FormData carries the text. */
  name?: string;
  /** Height of the empty editor (a CSS length); it grows with the text up to `maxHeight`, then scrolls. */
  minHeight?: string;
  maxHeight?: string;
  className?: string;
}

/** A diagnostic from the issue's line and column, clamped into the document; the underline runs to the line's end. */
function toDiagnostic(doc: Text, issue: CodeIssue): Diagnostic {
  const line = doc.line(Math.min(Math.max(issue.line ?? 1, 1), doc.lines));
  const from = Math.min(line.from + Math.max((issue.column ?? 1) - 1, 0), line.to);
  const message = issue.path ? `${issue.path}: ${issue.message}` : issue.message;
  return { from, to: Math.max(from, line.to), severity: 'error', message };
}

const languageOf = (language: CodeLanguage) => (language === 'json' ? json() : yaml());

/**
 * A CodeMirror 6 editor for JSON or YAML text, controlled like an input. Tab indents; Escape
 * then Tab moves focus on (no keyboard trap). The caller decides what the problems are (syntax
 * and schema) and passes them in; the editor only shows them, so the list below it and the
 * gutter never disagree.
 */
export function CodeEditor({
  value,
  onChange,
  language,
  issues,
  labelledBy,
  label,
  describedBy,
  readOnly = false,
  testId,
  name,
  minHeight = '6rem',
  maxHeight = '24rem',
  className,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const compartments = useRef({ language: new Compartment(), readOnly: new Compartment(), aria: new Compartment() });

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  const ariaAttributes = {
    ...(labelledBy ? { 'aria-labelledby': labelledBy } : label ? { 'aria-label': label } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    'aria-invalid': issues.length > 0 ? 'true' : 'false',
    // Editable content is focusable anyway; saying so lets checkers see the scroll region is reachable.
    tabindex: '0',
  };

  // The view is made once; the effects below push later prop changes into it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: made once with the first props; the effects below push later changes into the view
  useEffect(() => {
    if (!host.current) return;
    const { language: lang, readOnly: ro, aria } = compartments.current;
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          indentOnInput(),
          bracketMatching(),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
          lang.of(languageOf(language)),
          ro.of(EditorState.readOnly.of(readOnly)),
          aria.of(EditorView.contentAttributes.of(ariaAttributes)),
          syntaxHighlighting(codeHighlight),
          codeTheme,
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, []);

  // A new value from outside (a reset, a version loaded) replaces the text; typing round-trips unchanged.
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.language.reconfigure(languageOf(language)) });
  }, [language]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.readOnly.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  const ariaKey = JSON.stringify(ariaAttributes);
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.aria.reconfigure(EditorView.contentAttributes.of(JSON.parse(ariaKey) as Record<string, string>)) });
  }, [ariaKey]);

  useEffect(() => {
    const current = view.current;
    if (current)
      current.dispatch(
        setDiagnostics(
          current.state,
          issues.map((issue) => toDiagnostic(current.state.doc, issue)),
        ),
      );
  }, [issues]);

  return (
    <div
      className={cn(
        'overflow-hidden rounded-md border border-border-strong shadow-xs focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30',
        className,
      )}
      data-testid={testId}
    >
      <div ref={host} style={{ ['--code-min-height' as string]: minHeight, ['--code-max-height' as string]: maxHeight }} />
      <input type="hidden" name={name} value={value} data-testid={`${testId}-value`} />
    </div>
  );
}
