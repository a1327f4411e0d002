// @vitest-environment happy-dom
/**
 * "Since captured" in a right-to-left page: each price is isolated left to right ("100.00 US$" stays
 * whole, never "$US 100.00"), and the arrow from the start price to the last one points the way the
 * header's arrow points, which is the reading direction.
 */
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { SinceCapturedSection } from '@/lib/pages/sidepanel/SinceCapturedSection';
import type { Performance } from '@/lib/contract/catalyst';
import { localizeDocument } from '@/lib/i18n';
import { messageOf, useLocale } from '../../../fixtures/i18n';

afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('dir');
});

const performance: Performance = {
  playbook_id: 'pb_1',
  since: '2025-01-06',
  as_of: '2026-03-04',
  return: 0.21,
  benchmark: { symbol: 'SPY', return: 0.1 },
  tickers: [{ symbol: 'NEE', currency: 'USD', start_price: 100, last_price: 121, return: 0.21 }],
};

const ARROWS = /[→←]/g;

describe('the price move in Arabic', () => {
  it('isolates each amount left to right, and its arrow is the header’s (right to left: ←)', () => {
    useLocale('ar');
    localizeDocument(document);
    render(<SinceCapturedSection performance={performance} loading={false} />);
    const table = screen.getByRole('table', { name: messageOf('ar', 'sinceCaptured.tickers') });
    const header = within(table).getAllByRole('columnheader')[1];
    const cell = within(table).getAllByRole('row')[1].querySelectorAll('td')[0];

    const amounts = [...cell.querySelectorAll('bdi')];
    expect(amounts.map((amount) => amount.getAttribute('dir'))).toEqual(['ltr', 'ltr']);
    expect(amounts.map((amount) => amount.textContent)).toEqual([
      new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(100),
      new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(121),
    ]);
    expect(cell.textContent.match(ARROWS)).toEqual(['←']);
    expect(header.textContent.match(ARROWS)).toEqual(cell.textContent.match(ARROWS));
  });
});

it.each(['en', 'de', 'fr', 'es', 'pt_BR', 'ja', 'zh_CN', 'ar'])(
  '%s: the cells’ arrow points the way the header’s does',
  (file) => {
    useLocale(file);
    expect(messageOf(file, 'sinceCaptured.priceMove').match(ARROWS)).toEqual(
      messageOf(file, 'sinceCaptured.move').match(ARROWS),
    );
  },
);
