// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractArticle } from '@/lib/finance/article';
import { isByline, isPriceLine, isShareBar } from '@/lib/finance/blocks';
import { htmlDocument } from './load-fixture';

const NVDA = readFileSync(resolve(process.cwd(), 'tests/fixtures/pages/article-nvda.html'), 'utf8');

describe('the shapes that are never thesis text', () => {
  it.each([
    'NVIDIA Corporation (NVDA) NASDAQ · $1,184.20 +35.61 (+3.10%)',
    '$415.20 −2.31 (−0.55%)',
    'S&P 500 5,321.40 +0.42% · Nasdaq 16,920.11 +0.88%',
  ])('a price line: %s', (line) => expect(isPriceLine(line)).toBe(true));

  it('prose with a price or a percentage is not a price line', () => {
    expect(
      isPriceLine('Nvidia shares climbed 3.1% to $1,184 after the company raised its guidance for the year.'),
    ).toBe(false);
  });

  it('bylines, datelines, credits and share bars', () => {
    expect(isByline('By Jane Doe, Markets Reporter', '')).toBe(true);
    expect(isByline('Updated 12 min ago · 4 min read', '')).toBe(true);
    expect(isByline('Photo: Jensen Huang on stage', '')).toBe(true);
    expect(isByline('Jane Doe', 'Jane Doe')).toBe(true);
    expect(isByline('Bystanders expected a rally that did not come.', '')).toBe(false);
    expect(isShareBar('Share · Tweet · Email · Copy link')).toBe(true);
    expect(isShareBar('Share prices fell as investors sold chipmakers')).toBe(false);
  });

  it('a long block is prose whatever it holds: the checks read only short lines', () => {
    const long = [`${'+1'.repeat(150)}%`, `By ${'$1 '.repeat(100)}`, 'share '.repeat(40)];
    for (const line of long) {
      expect(isPriceLine(line)).toBe(false);
      expect(isByline(line, '')).toBe(false);
      expect(isShareBar(line)).toBe(false);
    }
  });
});

describe('extractArticle', () => {
  it('keeps the prose of the article: lead first, then its key paragraphs', () => {
    const document = htmlDocument(NVDA);
    const article = extractArticle(document);
    expect(article?.paragraphs[0]).toMatch(/^Nvidia's data-centre revenue doubled/);
    expect(article?.paragraphs).toHaveLength(4);
    const all = article?.paragraphs.join('\n') ?? '';
    for (const chrome of [
      '$1,184.20',
      'By Jane Doe',
      'Photo:',
      'Copy link',
      'AMD wins a cloud order',
      'iPhone',
    ])
      expect(all).not.toContain(chrome);
  });

  it('works on a clone: the page is left as it was', () => {
    const document = htmlDocument(NVDA);
    const snapshot = () => ({
      elements: document.querySelectorAll('*').length,
      text: document.documentElement.textContent,
      classes: [...document.querySelectorAll('[class]')].map((element) => element.getAttribute('class')),
    });
    const before = snapshot();
    extractArticle(document);
    expect(snapshot()).toEqual(before);
  });

  it('finds no article on a page without prose', () => {
    expect(
      extractArticle(htmlDocument('<body><table><tr><td>1</td></tr></table></body>'))?.paragraphs ?? [],
    ).toEqual([]);
  });
});
