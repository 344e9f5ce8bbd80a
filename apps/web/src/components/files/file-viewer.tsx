import { useMemo } from 'react';
import { formatBytes, type FileNode } from './files-format';
import { highlightFile } from './highlight';
import './syntax.css';

/**
 * One file as it was at the event. Text is highlighted by its language (highlight.js, from the
 * name or extension; plain when unknown or huge); anything the server sent as base64 is not
 * text, so only its size is shown. The server caps content at
 * 1 MiB and says so: the note keeps a cut file from passing for the whole of it.
 */
export function FileViewer({ file }: { file: FileNode }) {
  const highlighted = useMemo(() => (file.encoding === 'base64' ? null : highlightFile(file.path, file.content)), [file]);
  if (file.encoding === 'base64') {
    return (
      <p className="px-3 py-2 text-xs text-muted" data-testid="file-binary" data-size={file.size}>
        binary, {file.size.toLocaleString()} bytes
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1 px-3 py-2">
      {file.truncated ? (
        <p className="text-xs text-warning" data-testid="file-truncated">
          Truncated: showing the first {formatBytes(new TextEncoder().encode(file.content).length)} of {formatBytes(file.size)}.
        </p>
      ) : null}
      {/* The scrolling box takes keyboard focus, so a long file can be read without a mouse. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse (WCAG 2.1.1) */}
      <section className="max-h-96 overflow-auto rounded bg-surface-2" tabIndex={0} aria-label={`Content of ${file.path}`}>
        <pre
          className="p-2 font-mono text-xs whitespace-pre"
          data-testid="file-content"
          data-path={file.path}
          data-language={highlighted?.language ?? ''}
          // highlight.js escapes the file's text; its output is spans of token classes only.
          {...(highlighted ? { dangerouslySetInnerHTML: { __html: highlighted.html } } : { children: file.content })}
        />
      </section>
    </div>
  );
}
