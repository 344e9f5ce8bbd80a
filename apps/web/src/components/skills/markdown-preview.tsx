import type { ReactNode } from 'react';
import { type Block, type Inline, parseMarkdown } from '@/lib/markdown-blocks';

const HEADING_CLASS = ['text-base font-semibold', 'text-[15px] font-semibold', 'text-sm font-semibold', 'text-[13px] font-semibold'];

function inlines(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, index) => inline(node, `${node.kind}-${index}`));
}

function inline(node: Inline, key: string): ReactNode {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'code':
      return (
        <code key={key} className="rounded bg-surface-2 px-1 font-mono text-[12px]">
          {node.text}
        </code>
      );
    case 'strong':
      return <strong key={key}>{inlines(node.children)}</strong>;
    case 'em':
      return <em key={key}>{inlines(node.children)}</em>;
    case 'link':
      return (
        <a key={key} href={node.href} target="_blank" rel="noopener noreferrer nofollow" className="text-accent underline">
          {inlines(node.children)}
        </a>
      );
  }
}

function block(node: Block, index: number): ReactNode {
  const key = `${node.kind}-${index}`;
  switch (node.kind) {
    case 'heading': {
      const Tag = `h${Math.min(node.level + 2, 6)}` as 'h3' | 'h4' | 'h5' | 'h6';
      return (
        <Tag key={key} className={HEADING_CLASS[Math.min(node.level, 4) - 1]}>
          {inlines(node.content)}
        </Tag>
      );
    }
    case 'paragraph':
      return <p key={key}>{inlines(node.content)}</p>;
    case 'list': {
      const List = node.ordered ? 'ol' : 'ul';
      return (
        <List key={key} className={node.ordered ? 'list-decimal pl-5' : 'list-disc pl-5'}>
          {node.items.map((item, itemIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the items are a fixed parse of the text; they have no identity of their own
            <li key={itemIndex}>{inlines(item)}</li>
          ))}
        </List>
      );
    }
    case 'quote':
      return (
        <blockquote key={key} className="border-l-2 border-border-strong pl-3 text-muted">
          {inlines(node.content)}
        </blockquote>
      );
    case 'code':
      return (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled without a mouse
        <pre key={key} tabIndex={0} className="overflow-x-auto rounded-md bg-surface-2 p-2 font-mono text-[12px] whitespace-pre">
          {node.text}
        </pre>
      );
    case 'rule':
      return <hr key={key} className="border-border" />;
  }
}

/**
 * Markdown shown as it reads: the blocks of {@link parseMarkdown} as React elements (no HTML is
 * ever injected). Headings start at h3 so they sit below the page's own.
 */
export function MarkdownPreview({ source, testId }: { source: string; testId: string }) {
  const blocks = parseMarkdown(source);
  return (
    <div className="flex flex-col gap-2 text-[13px] leading-5 break-words" data-testid={testId}>
      {blocks.length === 0 ? <p className="text-muted">Nothing to preview.</p> : blocks.map(block)}
    </div>
  );
}
