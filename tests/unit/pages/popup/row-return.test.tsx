// @vitest-environment happy-dom
/** The popup row's short figure (return since capture) and the read model's rule for keeping it. */
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlaybookRow, shortReturn } from '@/lib/pages/popup/PlaybookRow';
import { keptReturns } from '@/lib/background/popupReturns';
import { useLocale } from '../../../fixtures/i18n';

afterEach(cleanup);

const row = (sinceCaptured: number | undefined) =>
  render(
    <PlaybookRow
      playbook={{
        id: 'pb_1',
        title: 'Semis',
        visibility: 'private',
        status: 'active',
        tickers: ['NVDA'],
        updated_at: '2025-01-07T12:00:00Z',
      }}
      now={Date.parse('2026-03-01T12:00:00Z')}
      sinceCaptured={sinceCaptured}
      onOpen={vi.fn()}
    />,
  ).container.querySelector('.pb-return');

describe('the row figure', () => {
  it('a short signed whole percentage, named for screen readers, beside the title', () => {
    useLocale('en');
    expect(row(0.14)?.textContent).toBe('Since captured +14%');
    expect(row(-0.035)?.className).toContain('down');
    useLocale('de');
    expect(row(0.14)?.textContent).toBe('Seit Erfassung +14\u00a0%');
  });

  it('nothing when unknown or outside what the contract allows', () => {
    useLocale('en');
    expect(row(undefined)).toBeNull();
    expect(row(Number.NaN)).toBeNull();
    expect(shortReturn(-1.5)).toBeUndefined();
    expect(shortReturn(1001)).toBeUndefined();
  });
});

describe('the read model keeps figures only for the rows of the page', () => {
  it('drops playbooks no longer on the first page, and keeps all when the page is unknown', () => {
    const saved = { pb_1: 0.1, pb_2: -0.2, gone: 0.3 };
    expect(keptReturns(saved, [{ id: 'pb_1' }, { id: 'pb_2' }, { id: 'pb_3' }])).toEqual({
      returns: { pb_1: 0.1, pb_2: -0.2 },
    });
    expect(keptReturns(saved, undefined)).toEqual({ returns: saved });
    expect(keptReturns(saved, [{ id: 'other' }])).toEqual({});
    expect(keptReturns(undefined, [{ id: 'pb_1' }])).toEqual({});
  });
});
