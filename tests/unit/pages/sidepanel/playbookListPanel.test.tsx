// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Playbook } from '@/lib/api/schemas';
import { PlaybookListPanel } from '@/lib/pages/sidepanel/PlaybookListPanel';

afterEach(cleanup);

const playbook: Playbook = {
  id: 'pb_1',
  title: 'Grid capex',
  thesis: 'A thesis.',
  visibility: 'private',
  status: 'draft',
  tickers: ['NEE'],
  owner: { id: 'usr', name: 'Demo' },
  created_at: '2026-02-01T00:00:00Z',
  updated_at: '2026-03-01T11:55:00Z',
  etag: '"1"',
};

describe('PlaybookListPanel rows', () => {
  it('says what the row checkbox is for, on screen and by name, and it chooses the row for "Refresh selected"', () => {
    const onToggle = vi.fn();
    render(
      <PlaybookListPanel
        items={[playbook]}
        loading={false}
        hasMore={false}
        selected={new Set()}
        refreshing={false}
        refreshErrors={{}}
        onToggle={onToggle}
        onOpen={vi.fn()}
        onLoadMore={vi.fn()}
        onRefreshSelected={vi.fn()}
        compared={[]}
        onToggleCompare={vi.fn()}
        onCompare={vi.fn()}
      />,
    );
    const choose = screen.getByRole('checkbox', { name: 'Select Grid capex for refresh' });
    // The word beside it, inside the same label: a click on "refresh" ticks the box.
    expect(choose.closest('label')?.textContent).toBe('refresh');
    fireEvent.click(choose);
    expect(onToggle).toHaveBeenCalledWith('pb_1');
    // Every checkbox of the row has a name: none is an unnamed Tab stop.
    for (const box of screen.getAllByRole('checkbox')) expect(box.getAttribute('aria-label')).toBeTruthy();
  });
});
