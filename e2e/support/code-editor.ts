import type { Locator, Page } from '@playwright/test';

/**
 * The app's CodeMirror editors (components/ui/code-editor.tsx) from a spec. The wrapper carries
 * the testid; typing goes into its `.cm-content`; the
 * text is read from the hidden input `${testId}-value`, since CodeMirror renders only the lines in
 * view (`errorLines` therefore looks at the first screenful: it scrolls the editor to its top).
 */
export interface CodeEditorHandle {
  root: Locator;
  content: Locator;
  fill: (text: string) => Promise<void>;
  value: () => Promise<string>;
  /** The line numbers (1-based) in the first screenful that have an error marker in the gutter, and those with an error underline. */
  errorLines: () => Promise<{ gutter: number[]; underlined: number[] }>;
}

export function codeEditor(page: Page, testId: string): CodeEditorHandle {
  const root = page.getByTestId(testId);
  const content = root.locator('.cm-content');
  return {
    root,
    content,
    // Not Playwright's fill: it selects the DOM's contents, which in CodeMirror are only the lines
    // drawn so far, so a long document kept its undrawn tail. The editor's own select-all (Mod-a)
    // selects the whole document; deleting it leaves an empty one to type into.
    fill: async (text) => {
      await content.focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Backspace');
      if (text !== '') await page.keyboard.insertText(text);
    },
    value: () => page.getByTestId(`${testId}-value`).inputValue(),
    // A marker or underline belongs to the line whose number sits at the same height in the gutter.
    errorLines: () =>
      root.evaluate(async (el) => {
        el.scrollIntoView({ block: 'start' });
        const scroller = el.querySelector('.cm-scroller');
        if (scroller) scroller.scrollTop = 0;
        // CodeMirror draws the lines now in view on the next frame.
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const numbers = [...el.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].map((e) => ({
          n: Number(e.textContent),
          top: e.getBoundingClientRect().top,
        }));
        const lineAt = (node: Element | null) => {
          const top = node?.getBoundingClientRect().top;
          return top === undefined ? NaN : (numbers.find((x) => Math.abs(x.top - top) < 3)?.n ?? NaN);
        };
        const unique = (list: number[]) => [...new Set(list)].sort((a, b) => a - b);
        return {
          gutter: unique([...el.querySelectorAll('.cm-lint-marker-error')].map((m) => lineAt(m.closest('.cm-gutterElement')))),
          underlined: unique([...el.querySelectorAll('.cm-lintRange-error')].map((r) => lineAt(r.closest('.cm-line')))),
        };
      }),
  };
}
