// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { SafeMarkdown, safeHref } from '@/lib/pages/sidepanel/SafeMarkdown';
import { markdownToSafeBlocks, type SafeBlock } from '@/lib/discovery/markdown';

afterEach(cleanup);

function renderBlocks(blocks: unknown[]) {
  return render(<SafeMarkdown blocks={blocks as SafeBlock[]} />).container;
}

describe('SafeMarkdown with hostile trees', () => {
  it.each([
    ['javascript:alert(1)'],
    ['JAVASCRIPT:alert(1)'],
    ['  javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:msgbox(1)'],
    ['/relative/path'],
    ['file:///etc/passwd'],
    [''],
  ])('drops the link but keeps its words for href %j', (href) => {
    const container = renderBlocks([
      {
        type: 'paragraph',
        children: [{ type: 'link', href, children: [{ type: 'text', text: 'click me' }] }],
      },
    ]);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toBe('click me');
  });

  it.each([['https://example.com/a?b=1'], ['http://127.0.0.1:8787/x'], ['mailto:team@example.com']])(
    'keeps %s as a link that opens in a new tab without an opener',
    (href) => {
      const container = renderBlocks([
        { type: 'paragraph', children: [{ type: 'link', href, children: [{ type: 'text', text: 'ok' }] }] },
      ]);
      const link = container.querySelector('a');
      expect(link?.getAttribute('href')).toBe(new URL(href).href);
      expect(link?.getAttribute('target')).toBe('_blank');
      expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
    },
  );

  it('renders markup-looking text as text, never as elements', () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:x">y</a>';
    const container = renderBlocks([
      { type: 'heading', depth: 1, children: [{ type: 'text', text: hostile }] },
      { type: 'paragraph', children: [{ type: 'code', text: hostile }] },
      { type: 'code', lang: 'html', text: hostile },
      {
        type: 'table',
        align: [null],
        header: [[{ type: 'text', text: hostile }]],
        rows: [[[{ type: 'text', text: hostile }]]],
      },
    ]);
    expect(container.querySelectorAll('script, img, iframe').length).toBe(0);
    expect(container.querySelectorAll('a').length).toBe(0);
    expect(container.textContent).toContain('<script>alert(1)</script>');
  });

  it('drops block and inline types it does not know, and clamps heading levels', () => {
    const container = renderBlocks([
      { type: 'html', text: '<script>alert(1)</script>' },
      {
        type: 'paragraph',
        children: [
          { type: 'html', text: '<b>x</b>' },
          { type: 'text', text: 'kept' },
        ],
      },
      { type: 'heading', depth: 99, children: [{ type: 'text', text: 'deep' }] },
      { type: 'heading', depth: -5, children: [{ type: 'text', text: 'shallow' }] },
    ]);
    expect(container.textContent).toBe('keptdeepshallow');
    expect(container.querySelector('h6')?.textContent).toBe('deep');
    expect(container.querySelector('h3')?.textContent).toBe('shallow');
  });

  it('renders a hostile Markdown document inert end to end', () => {
    const markdown = [
      '# Title',
      '<script>alert(1)</script>',
      '[js](javascript:alert(1)) [ent](javascript&#58;alert(1)) [ok](https://example.com)',
      '<a href="javascript:alert(1)">raw</a> <iframe src="https://evil.example"></iframe>',
      '![img](https://evil.example/track.png)',
      '- [x] done',
    ].join('\n\n');
    const container = renderBlocks(markdownToSafeBlocks(markdown, 'https://service.example/doc.md'));
    expect(container.querySelectorAll('script, iframe, img').length).toBe(0);
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['https://example.com/']);
    expect(container.textContent).not.toContain('alert(1)</script>');
    expect(container.querySelector('input[type=checkbox]')?.hasAttribute('disabled')).toBe(true);
  });

  it.each([[42], [null], [{ href: 'https://x' }], ['javascript:void 0']])('safeHref refuses %j', (value) => {
    expect(safeHref(value)).toBeUndefined();
  });
});
