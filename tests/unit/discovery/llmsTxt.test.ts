import { describe, expect, it } from 'vitest';
import { parseLlmsTxt, readHeading } from '@/lib/discovery/llmsTxt';
import { cpuNow, linearBound } from '../../fixtures/linearTime';

const URL_ = 'https://svc.example/llms.txt';

const SAMPLE = `# Investing Agent

> Turns research into playbooks.
> Decision support, not financial advice.

Some details about the product.

## Docs

- [API docs](/api-docs): The API reference
- [OpenAPI](https://svc.example/openapi.json)
* [Relative](pricing.md): Plans

## Optional

- [Explore](/explore.md): Public playbooks
`;

describe('parseLlmsTxt', () => {
  it('reads name, summary, details and sections with resolved links', () => {
    const parsed = parseLlmsTxt(SAMPLE, URL_);
    expect(parsed.name).toBe('Investing Agent');
    expect(parsed.summary).toBe('Turns research into playbooks. Decision support, not financial advice.');
    expect(parsed.details).toBe('Some details about the product.');
    expect(parsed.sections.map((s) => s.title)).toEqual(['Docs', 'Optional']);
    expect(parsed.sections[0].links).toEqual([
      { title: 'API docs', url: 'https://svc.example/api-docs', note: 'The API reference' },
      { title: 'OpenAPI', url: 'https://svc.example/openapi.json', note: '' },
      { title: 'Relative', url: 'https://svc.example/pricing.md', note: 'Plans' },
    ]);
  });

  it.each([
    ['javascript: link', '## S\n- [x](javascript:alert(1)): bad', 0],
    ['data: link', '## S\n- [x](data:text/html,hi)', 0],
    ['vbscript: link', '## S\n- [x](vbscript:run)', 0],
    ['mixed case scheme', '## S\n- [x](JAVASCRIPT:alert(1))', 0],
    ['one good, one bad', '## S\n- [ok](/a)\n- [bad](javascript:x)', 1],
    ['not a list item', '## S\n[x](/a)', 0],
    ['unclosed bracket', '## S\n- [x(/a)', 0],
  ])('keeps only safe links: %s', (_name, text, count) => {
    const parsed = parseLlmsTxt(text, URL_);
    const links = parsed.sections.flatMap((s) => s.links);
    expect(links).toHaveLength(count);
    for (const link of links) expect(link.url).toMatch(/^https?:/);
  });

  it.each([
    ['empty input', ''],
    ['only whitespace', '   \n\n\t'],
    ['missing headings', 'just text\n- [a](/a)'],
    ['binary junk', '\u0000\u0001\uffff#\n>'],
    ['huge single line', `# ${'x'.repeat(200_000)}`],
    ['many headings', '## s\n'.repeat(5_000)],
    ['backtracking bait', `- [${'['.repeat(50_000)}`],
  ])('handles hostile input without throwing: %s', (_name, text) => {
    const started = cpuNow();
    const parsed = parseLlmsTxt(text, URL_);
    expect(cpuNow() - started).toBeLessThan(linearBound(text, 1_000));
    expect(parsed.sections.length).toBeLessThanOrEqual(200);
    expect(parsed.name.length).toBeLessThanOrEqual(500);
  });

  it('skips an over-long line instead of truncating a link into a different one', () => {
    const parsed = parseLlmsTxt(`## S\n- [long](/${'a'.repeat(10_000)})\n- [short](/b)`, URL_);
    expect(parsed.sections[0].links.map((l) => l.title)).toEqual(['short']);
  });

  it('puts links before any section into an untitled section', () => {
    const parsed = parseLlmsTxt('# N\n- [a](/a)', URL_);
    expect(parsed.sections).toEqual([
      { title: '', links: [{ title: 'a', url: 'https://svc.example/a', note: '' }] },
    ]);
  });

  it('caps the number of links', () => {
    const parsed = parseLlmsTxt(`## S\n${'- [a](/a)\n'.repeat(3_000)}`, URL_);
    expect(parsed.sections[0].links).toHaveLength(2_000);
  });

  // The heading regex was cubic on a run of spaces: 1,500 characters took 2.2 s, 3,000 took 11 s.
  it.each([1_500, 3_000, 8_000])('reads a %i-character heading line of spaces in linear time', (length) => {
    const text = `## a${' '.repeat(length)}x\n- [a](/a)`;
    const started = cpuNow();
    const parsed = parseLlmsTxt(text, URL_);
    expect(cpuNow() - started).toBeLessThan(linearBound(text, 1_000));
    expect(parsed.sections[0].title).toBe('a x');
    expect(parsed.sections[0].links).toHaveLength(1);
  });

  it('reads a link line whose note ends in a line separator in linear time', () => {
    const text = `## S\n- [a](/a):${' '.repeat(8_000)}\u2028x`;
    const started = cpuNow();
    const parsed = parseLlmsTxt(text, URL_);
    expect(cpuNow() - started).toBeLessThan(linearBound(text, 1_000));
    expect(parsed.sections[0].links[0]?.note).toBe('x');
  });

  it.each([
    ['# Name', { level: 1, title: 'Name' }],
    ['## Docs ##', { level: 2, title: 'Docs' }],
    ['### C#', { level: 3, title: 'C#' }],
    ['#   spaced   out   ', { level: 1, title: 'spaced   out' }],
    ['## ###', { level: 2, title: '' }],
    ['####### seven', null],
    ['#hashtag', null],
    ['plain', null],
  ])('reads the heading %j', (line, expected) => {
    expect(readHeading(line)).toEqual(expected);
  });
});
