// @vitest-environment happy-dom
/**
 * Text the service or a page supplies, in a right-to-left page: each element that shows it has its
 * own direction (dir="auto" for free text, "ltr" for URLs, paths and code), so an English sentence
 * keeps its full stop at its end and "/api/v1" is not mirrored in Arabic.
 */
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Welcome } from '@/lib/pages/options/Welcome';
import { BacktestsSection } from '@/lib/pages/sidepanel/BacktestsSection';
import { completedBacktest } from '../../fixtures/backtests';
import type { Backtest } from '@/lib/contract/backtest';
import { localizeDocument } from '@/lib/i18n';
import { useLocale } from '../../fixtures/i18n';

afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('dir');
});

/** The direction `text` is laid out in: the `dir` of the innermost element holding it whole. */
function directionOfText(container: Element, text: string): string | null | undefined {
  const holders = [...container.querySelectorAll('*')].filter((element) => element.textContent === text);
  const own = holders.length > 0 ? holders[holders.length - 1] : undefined;
  const found =
    own ?? [...container.querySelectorAll('*')].reverse().find((e) => e.textContent?.includes(text));
  return found?.closest('[dir]')?.getAttribute('dir');
}

describe('in Arabic', () => {
  it('the welcome page lays out its paths and addresses left to right', () => {
    useLocale('ar');
    localizeDocument(document);
    const { container } = render(<Welcome demoService="http://127.0.0.1:8787" />);
    expect(directionOfText(container, '/api/v1')).toBe('ltr');
    expect(directionOfText(container, '.sandbox/demo-key')).toBe('ltr');
    expect(directionOfText(container, 'http://127.0.0.1:8787/demo/quote/AAPL')).toBe('ltr');
  });

  it("a failed backtest's reason, as the service wrote it, takes its own direction", () => {
    useLocale('ar');
    localizeDocument(document);
    const failed = {
      ...completedBacktest,
      id: 'bt_9',
      status: 'failed',
      metrics: null,
      equity: undefined,
      error: { code: 'no_data', detail: 'No price data before 1990-01-02 for this universe.' },
    } as unknown as Backtest;
    const { container } = render(
      <BacktestsSection
        items={[failed]}
        loading={false}
        hasMore={false}
        onLoadMore={() => {}}
        onShow={() => {}}
      />,
    );
    expect(directionOfText(container, 'No price data before 1990-01-02 for this universe.')).toBe('auto');
  });
});
