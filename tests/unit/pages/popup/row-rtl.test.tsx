// @vitest-environment happy-dom
/**
 * The popup's row in Arabic (a right-to-left page): the count of tickers not shown reads "+3", its
 * plus sign before the digits, not "3+" as a bare run of neutral characters would in a right-to-left line.
 */
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlaybookRow } from '@/lib/pages/popup/PlaybookRow';
import { localizeDocument } from '@/lib/i18n';
import { useLocale } from '../../../fixtures/i18n';

afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute('dir');
});

/** The direction an element's text is laid out in: its own or its nearest ancestor's `dir`. */
function directionOf(element: Element): string | null | undefined {
  return element.closest('[dir]')?.getAttribute('dir');
}

describe('the ticker overflow in a right-to-left page', () => {
  it('ar: "+3" is laid out left to right', () => {
    useLocale('ar');
    localizeDocument(document);
    const { container } = render(
      <PlaybookRow
        playbook={{
          id: 'pb_1',
          title: 'Semis',
          visibility: 'private',
          status: 'active',
          tickers: ['NVDA', 'AMD', 'AVGO', 'MRVL', 'TSM', 'ASML'],
          updated_at: '2025-01-07T12:00:00Z',
        }}
        now={Date.parse('2026-03-01T12:00:00Z')}
        onOpen={vi.fn()}
      />,
    );
    const more = container.querySelector('.pb-ticker-more')!;
    expect(more.textContent).toBe('+3');
    expect(directionOf(more)).toBe('ltr');
  });
});
