import { describe, expect, it } from 'vitest';
import {
  inlineText,
  markdownToSafeBlocks,
  DEFAULT_MARKDOWN_LIMITS,
  truncationNotice,
  type SafeBlock,
} from '@/lib/discovery/markdown';

const DOC = 'https://svc.example/docs/auth.md';

/** Every href anywhere in the tree, and every string value, for whole-tree assertions. */
function collect(tree: unknown): { hrefs: string[]; strings: string[]; types: string[] } {
  const out = { hrefs: [] as string[], strings: [] as string[], types: [] as string[] };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'href' && typeof value === 'string') out.hrefs.push(value);
        if (key === 'type' && typeof value === 'string') out.types.push(value);
        walk(value);
      }
    } else if (typeof node === 'string') out.strings.push(node);
  };
  walk(tree);
  return out;
}

const ALLOWED_TYPES = new Set([
  'heading',
  'paragraph',
  'list',
  'code',
  'blockquote',
  'table',
  'hr',
  'text',
  'strong',
  'em',
  'del',
  'link',
  'br',
]);

describe('markdownToSafeBlocks', () => {
  it('builds headings, paragraphs with inline marks, lists, code, quotes, tables and rules', () => {
    const blocks = markdownToSafeBlocks(
      '# Title *x*\n\nSee **bold** and `code` and [docs](/api-docs.md).\n\n1. one\n2. two\n\n- [x] done\n\n> quoted\n\n```js\nconst a = 1 < 2;\n```\n\n| A | B |\n|:-|-:|\n| 1 | **2** |\n\n---\n',
      DOC,
    );
    expect(blocks.map((b) => b.type)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'blockquote',
      'code',
      'table',
      'hr',
    ]);
    expect(blocks[0]).toEqual({
      type: 'heading',
      depth: 1,
      children: [
        { type: 'text', text: 'Title ' },
        { type: 'em', children: [{ type: 'text', text: 'x' }] },
      ],
    });
    expect(blocks[1]).toEqual({
      type: 'paragraph',
      children: [
        { type: 'text', text: 'See ' },
        { type: 'strong', children: [{ type: 'text', text: 'bold' }] },
        { type: 'text', text: ' and ' },
        { type: 'code', text: 'code' },
        { type: 'text', text: ' and ' },
        { type: 'link', href: 'https://svc.example/api-docs.md', children: [{ type: 'text', text: 'docs' }] },
        { type: 'text', text: '.' },
      ],
    });
    expect(blocks[2]).toMatchObject({
      type: 'list',
      ordered: true,
      start: 1,
      items: [{ checked: null }, { checked: null }],
    });
    expect(blocks[3]).toMatchObject({ type: 'list', ordered: false, items: [{ checked: true }] });
    expect(blocks[5]).toEqual({ type: 'code', lang: 'js', text: 'const a = 1 < 2;' });
    const table = blocks[6] as Extract<SafeBlock, { type: 'table' }>;
    expect(table.align).toEqual(['left', 'right']);
    expect(table.header.map(inlineText)).toEqual(['A', 'B']);
    expect(table.rows[0].map(inlineText)).toEqual(['1', '2']);
  });

  it.each([
    ['javascript link', '[click](javascript:alert(1))', 'click'],
    ['upper-case scheme', '[click](JAVASCRIPT:alert(1))', 'click'],
    ['entity-encoded scheme', '[click](javascript&#58;alert(1))', 'click'],
    ['tab inside scheme', '[click](java\tscript:alert(1))', 'click'],
    ['data link', '[img](data:text/html;base64,PHNjcmlwdD4=)', 'img'],
    ['vbscript link', '[v](vbscript:msgbox(1))', 'v'],
    ['autolink javascript', '<javascript:alert(1)>', ''],
    ['reference link', '[r][1]\n\n[1]: javascript:alert(1)', 'r'],
    ['image with javascript src', '![alt](javascript:alert(1))', 'alt'],
  ])('never emits an unsafe href: %s', (_name, markdown, visibleText) => {
    const blocks = markdownToSafeBlocks(markdown, DOC);
    const { hrefs, strings } = collect(blocks);
    for (const href of hrefs) expect(href).toMatch(/^(https?:|mailto:)/);
    expect(hrefs.some((h) => /script|data:/i.test(h))).toBe(false);
    if (visibleText) expect(strings.join(' ')).toContain(visibleText);
  });

  it.each([
    ['block html', '<div onclick="x()">hello</div>\n\nafter', 'after'],
    ['inline html', 'a <b onmouseover="x()">bold</b> c', 'bold'],
    ['script element', 'before <script>alert(1)</script> after', 'after'],
    ['style element', 'x <style>body{display:none}</style> y', 'y'],
    ['iframe', '<iframe src="https://evil.example"></iframe>', ''],
    ['html comment', 'text <!-- secret --> visible', 'visible'],
    ['html comment block', '<!-- secret -->\n\nvisible', 'visible'],
    ['img onerror', '<img src=x onerror=alert(1)>', ''],
  ])('drops raw HTML: %s', (_name, markdown, keptText) => {
    const blocks = markdownToSafeBlocks(markdown, DOC);
    const { strings, types } = collect(blocks);
    for (const type of types) expect(ALLOWED_TYPES.has(type)).toBe(true);
    const text = strings.join(' ');
    expect(text).not.toMatch(/<\s*(?:\/\s*)?(div|b|script|style|iframe|img)\b/i);
    expect(text).not.toContain('alert(1)');
    expect(text).not.toContain('secret');
    if (keptText) expect(text).toContain(keptText);
  });

  it('keeps http(s) and mailto links, resolving relative ones against the document', () => {
    const { hrefs } = collect(
      markdownToSafeBlocks('[a](../x) [b](mailto:h@svc.example) <https://svc.example/auto>', DOC),
    );
    expect(hrefs).toEqual(['https://svc.example/x', 'mailto:h@svc.example', 'https://svc.example/auto']);
  });

  it('decodes entities into text instead of passing markup through', () => {
    const blocks = markdownToSafeBlocks('a &amp; b &lt;script&gt; &#65; &#x1F600; &#0; &bogus;', DOC);
    expect(inlineText((blocks[0] as Extract<SafeBlock, { type: 'paragraph' }>).children)).toBe(
      'a & b <script> A 😀 \ufffd &bogus;',
    );
  });

  it('is JSON-serializable without loss', () => {
    const blocks = markdownToSafeBlocks('# T\n\n- a\n- b\n\n| x |\n|---|\n| y |\n', DOC);
    expect(JSON.parse(JSON.stringify(blocks))).toEqual(blocks);
  });

  it.each([
    ['many paragraphs', 'p\n\n'.repeat(20_000)],
    ['deep blockquotes', `${'>'.repeat(500)} deep`],
    ['deep lists', Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n')],
    ['deep emphasis', `${'*'.repeat(2_000)}x${'*'.repeat(2_000)}`],
    ['huge table', `| a | b |\n|---|---|\n${'| 1 | 2 |\n'.repeat(10_000)}`],
  ])('bounds the tree for %s', (_name, markdown) => {
    const blocks = markdownToSafeBlocks(markdown, DOC, {
      ...DEFAULT_MARKDOWN_LIMITS,
      maxNodes: 500,
      maxDepth: 8,
      maxTextLength: 1_000,
      maxInputLength: 1_000_000,
    });
    const { types, strings } = collect(blocks);
    expect(types.length).toBeLessThanOrEqual(520);
    const depth = (node: unknown): number =>
      Array.isArray(node)
        ? Math.max(0, ...node.map(depth))
        : node && typeof node === 'object'
          ? 1 + Math.max(0, ...Object.values(node).map(depth))
          : 0;
    expect(depth(blocks)).toBeLessThan(60);
    // Every case runs into a bound (nodes, depth or text length), and each bound says so.
    expect(strings).toContain(truncationNotice());
  });

  it('marks a document shortened by the input bound', () => {
    const blocks = markdownToSafeBlocks('word '.repeat(1_000), DOC, {
      ...DEFAULT_MARKDOWN_LIMITS,
      maxNodes: 100,
      maxDepth: 8,
      maxTextLength: 10_000,
      maxInputLength: 50,
    });
    expect(collect(blocks).strings).toContain(truncationNotice());
  });
});

describe('the inline pass is bounded', () => {
  it.each([
    ['unclosed links', '[a]('.repeat(2_500)],
    ['unclosed emphasis', '*a '.repeat(20_000)],
  ])('keeps a run too long to inline-lex (%s) as one plain text run', (_name, markdown) => {
    // Unbounded, marked took 7 to 30 seconds on these; now the run is never inline-lexed.
    const [block] = markdownToSafeBlocks(markdown, DOC, {
      ...DEFAULT_MARKDOWN_LIMITS,
      maxTextLength: 100_000,
    });
    expect(block).toMatchObject({ type: 'paragraph' });
    const { types, strings } = collect(block);
    expect(types.filter((type) => type !== 'paragraph')).toEqual(['text']);
    expect(strings.join('')).toContain(markdown.trim().slice(0, 40));
  });

  it('stops inline lexing once the time budget is spent, keeping the words', () => {
    const markdown = 'Some **bold** and a [link](https://example.com/x).';
    const blocks = markdownToSafeBlocks(markdown, DOC, { ...DEFAULT_MARKDOWN_LIMITS, inlineBudgetMs: 0 });
    const { types, hrefs, strings } = collect(blocks);
    expect(types).not.toContain('strong');
    expect(hrefs).toEqual([]);
    expect(strings.join('')).toContain('[link](https://example.com/x)');
  });

  it('still formats ordinary paragraphs, tables and list items', () => {
    const blocks = markdownToSafeBlocks(
      'Some **bold** and a [link](https://example.com/x).\n\n| a |\n|---|\n| *b* |\n\n- `c`',
      DOC,
    );
    const { types } = collect(blocks);
    expect(types).toEqual(expect.arrayContaining(['strong', 'link', 'em', 'code']));
  });
});
