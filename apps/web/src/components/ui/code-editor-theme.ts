import { HighlightStyle } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/**
 * The editor in the app's colours. Every colour is one of the app's CSS variables, which switch
 * with `data-theme`, so one theme serves light and dark; token colours are the ones the app
 * already uses for text (accent, success, muted), which meet the contrast the pages are held to.
 */
export const codeTheme = EditorView.theme({
  '&': { backgroundColor: 'var(--surface)', color: 'var(--foreground)', fontSize: '12px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': {
    fontFamily: "var(--font-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace)",
    lineHeight: '20px',
    minHeight: 'var(--code-min-height)',
    maxHeight: 'var(--code-max-height)',
    overflow: 'auto',
  },
  '.cm-content': { caretColor: 'var(--foreground)', padding: '6px 0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--foreground)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
    backgroundColor: 'var(--accent-soft)',
  },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in oklch, var(--accent-soft) 45%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--accent-soft)', color: 'var(--foreground)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--accent-soft)', outline: '1px solid var(--ring)' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--foreground)', border: '1px solid var(--border-strong)', borderRadius: '6px' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' },
  '.cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--foreground)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--border)' },
  '.cm-panel.cm-panel-lint ul [aria-selected]': { backgroundColor: 'var(--accent-soft)', color: 'var(--foreground)' },
});

/** Token colours for JSON and YAML. */
export const codeHighlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--accent)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--success)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.keyword], color: 'var(--foreground)', fontWeight: '600' },
  { tag: [tags.comment, tags.meta, tags.punctuation, tags.separator, tags.bracket], color: 'var(--muted)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);
