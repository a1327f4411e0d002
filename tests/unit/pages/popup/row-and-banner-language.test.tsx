// @vitest-environment happy-dom
/**
 * The popup's row and its insecure-settings banner in the UI language: the row gives screen
 * readers every ticker in one sentence (the chips stop at four and "+N"); the banner puts its
 * sentence and its link side by side as the language does (no space in Japanese).
 */
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_SPOKEN_TICKERS, PlaybookRow } from '@/lib/pages/popup/PlaybookRow';
import { InsecureSettingsBanner } from '@/lib/pages/popup/ProblemBanner';
import { messageOf, useLocale } from '../../../fixtures/i18n';

afterEach(cleanup);

const TICKERS = ['NVDA', 'AMD', 'AVGO', 'MRVL', 'TSM', 'ASML'];

describe('PlaybookRow', () => {
  it.each(['en', 'de', 'ar', 'ja'])('%s: three tickers and +3, the full list as one sentence', (file) => {
    useLocale(file);
    const { container } = render(
      <PlaybookRow
        playbook={{
          id: 'pb_1',
          title: 'Semis',
          visibility: 'private',
          status: 'active',
          tickers: TICKERS,
          updated_at: '2025-01-07T12:00:00Z',
        }}
        now={Date.parse('2026-03-01T12:00:00Z')}
        onOpen={vi.fn()}
      />,
    );
    const shown = container.querySelector('.pb-ticker-text')!;
    expect(shown.getAttribute('aria-hidden')).toBe('true');
    expect(shown.textContent).toBe('NVDA AMD AVGO');
    expect(container.querySelector('.pb-ticker-more')?.textContent).toBe(
      messageOf(file, 'popup.row.moreTickers', { count: new Intl.NumberFormat(file).format(3) }),
    );
    const list = TICKERS.join(messageOf(file, 'common.separator.list'));
    expect(container.querySelector('.pb-tickers .visually-hidden')?.textContent).toBe(
      messageOf(file, 'popup.row.tickerList', { list }),
    );
    // The date is on the status line, not after the tickers that could push it out.
    expect(container.querySelector('.pb-row-meta time')).not.toBeNull();
  });
});

describe('PlaybookRow with a long list of tickers', () => {
  const many = Array.from({ length: 25 }, (_, i) => `T${i}`);

  function sentence(tickers: string[]): string | null | undefined {
    const { container } = render(
      <PlaybookRow
        playbook={{
          id: 'pb_2',
          title: 'Many',
          visibility: 'private',
          status: 'active',
          tickers,
          updated_at: '2025-01-07T12:00:00Z',
        }}
        now={Date.parse('2026-03-01T12:00:00Z')}
        onOpen={vi.fn()}
      />,
    );
    const text = container.querySelector('.pb-tickers .visually-hidden')?.textContent;
    cleanup();
    return text;
  }

  it.each([
    ['en', 'other'],
    ['de', 'other'],
    ['ar', 'few'],
    ['ja', 'other'],
  ])('%s: names the first twenty, then counts the rest (%s)', (file, category) => {
    useLocale(file);
    const list = many.slice(0, MAX_SPOKEN_TICKERS).join(messageOf(file, 'common.separator.list'));
    expect(sentence(many)).toBe(
      messageOf(file, `popup.row.tickerListMore.${category}`, {
        list,
        count: new Intl.NumberFormat(file).format(5),
      }),
    );
  });

  it('en: one more is singular; exactly twenty is the plain list', () => {
    useLocale('en');
    expect(sentence(many.slice(0, 21))).toMatch(/ and 1 more$/);
    expect(sentence(many.slice(0, 20))).toBe(`Tickers: ${many.slice(0, 20).join(', ')}`);
  });
});

describe('InsecureSettingsBanner', () => {
  it.each([
    ['en', ' '],
    ['de', ' '],
    ['ja', ''],
    ['zh_CN', ''],
  ])('%s: sentence and link joined with %j', (file, gap) => {
    useLocale(file);
    const { container } = render(
      <InsecureSettingsBanner message="Sentence." optionsUrl="chrome-extension://x/options.html" />,
    );
    expect(container.querySelector('p')?.textContent).toBe(
      `Sentence.${gap}${messageOf(file, 'popup.problem.openOptions')}`,
    );
  });
});
