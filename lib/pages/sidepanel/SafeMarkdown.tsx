import type { JSX } from 'preact';
import type { SafeBlock, SafeInline } from '@/lib/discovery/markdown';
import { t } from '@/lib/i18n';

/**
 * Renders a SafeBlock tree (lib/discovery/markdown.ts) with Preact elements only: every string is
 * a text node, never HTML. Links are re-checked here (http, https, mailto only) even though the
 * tree was built to hold nothing else, and always open in a new tab without an opener.
 */
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export function safeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined;
  try {
    const url = new URL(href);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function Inlines({ nodes }: { nodes: readonly SafeInline[] }) {
  return (
    <>
      {nodes.map((node, index) => (
        <Inline key={index} node={node} />
      ))}
    </>
  );
}

function Inline({ node }: { node: SafeInline }): JSX.Element | null {
  switch (node.type) {
    case 'text':
      return <>{node.text}</>;
    case 'strong':
      return (
        <strong>
          <Inlines nodes={node.children} />
        </strong>
      );
    case 'em':
      return (
        <em>
          <Inlines nodes={node.children} />
        </em>
      );
    case 'del':
      return (
        <del>
          <Inlines nodes={node.children} />
        </del>
      );
    case 'code':
      return <code>{node.text}</code>;
    case 'br':
      return <br />;
    case 'link': {
      const href = safeHref(node.href);
      if (!href) return <Inlines nodes={node.children} />;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer">
          <Inlines nodes={node.children} />
        </a>
      );
    }
    default:
      return null;
  }
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/** A list; a task list's items carry a checkbox that says, read only, whether the item is done. */
function ListBlock({
  block,
  headingOffset,
}: {
  block: Extract<SafeBlock, { type: 'list' }>;
  headingOffset: number;
}) {
  const items = block.items.map((item, index) => (
    <li key={index}>
      {item.checked !== null ? (
        <input
          type="checkbox"
          checked={item.checked}
          disabled
          aria-label={item.checked ? t('sidepanel.markdown.done') : t('sidepanel.markdown.toDo')}
        />
      ) : null}
      <Blocks blocks={item.children} headingOffset={headingOffset} />
    </li>
  ));
  return block.ordered ? <ol start={block.start ?? undefined}>{items}</ol> : <ul>{items}</ul>;
}

/** A table in its own box, which scrolls sideways when the panel is narrower than the table. */
function TableBlock({ block }: { block: Extract<SafeBlock, { type: 'table' }> }) {
  return (
    <div class="md-table">
      <table>
        <thead>
          <tr>
            {block.header.map((cell, index) => (
              <th key={index} scope="col" style={{ textAlign: block.align[index] ?? undefined }}>
                <Inlines nodes={cell} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {block.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} style={{ textAlign: block.align[index] ?? undefined }}>
                  <Inlines nodes={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Block({ block, headingOffset }: { block: SafeBlock; headingOffset: number }): JSX.Element | null {
  switch (block.type) {
    case 'heading': {
      // Clamped before the offset, so no depth a document claims can rise above the panel's own headings.
      const depth = Number.isFinite(block.depth) ? Math.min(Math.max(Math.floor(block.depth), 1), 6) : 6;
      const level = Math.min(depth + headingOffset, 6);
      const Tag = HEADINGS[level - 1];
      return (
        <Tag>
          <Inlines nodes={block.children} />
        </Tag>
      );
    }
    case 'paragraph':
      return (
        <p>
          <Inlines nodes={block.children} />
        </p>
      );
    case 'list':
      return <ListBlock block={block} headingOffset={headingOffset} />;
    case 'code':
      return (
        <pre>
          <code data-lang={block.lang || undefined}>{block.text}</code>
        </pre>
      );
    case 'blockquote':
      return (
        <blockquote>
          <Blocks blocks={block.children} headingOffset={headingOffset} />
        </blockquote>
      );
    case 'table':
      return <TableBlock block={block} />;
    case 'hr':
      return <hr />;
    default:
      // A block type this renderer does not know is dropped, never guessed at.
      return null;
  }
}

function Blocks({ blocks, headingOffset }: { blocks: readonly SafeBlock[]; headingOffset: number }) {
  return (
    <>
      {blocks.map((block, index) => (
        <Block key={index} block={block} headingOffset={headingOffset} />
      ))}
    </>
  );
}

export interface SafeMarkdownProps {
  blocks: readonly SafeBlock[];
  /** Shifts heading levels so a document's `#` sits below the panel's own headings. */
  headingOffset?: number;
}

export function SafeMarkdown({ blocks, headingOffset = 2 }: SafeMarkdownProps) {
  return (
    <div class="md">
      <Blocks blocks={blocks} headingOffset={headingOffset} />
    </div>
  );
}
