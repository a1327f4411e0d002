// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendMessage } from '@/lib/messaging/client';
import { PlaybooksTab } from '@/lib/pages/sidepanel/PlaybooksTab';
import { playbook } from '../popup/fixtures';

/** The side panel's list of playbooks as a keyboard user meets it: one Tab stop per row unless choosing. */
vi.mock('@/lib/messaging/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/messaging/client')>()),
  sendMessage: vi.fn(),
}));

const items = ['Grid capex', 'Water rights', 'Rail freight', 'Copper miners', 'Solar glass'].map((title, i) =>
  playbook(`pb_${i + 1}`, title),
);

function answer(refresh: () => Promise<unknown> = () => new Promise(() => undefined)) {
  vi.mocked(sendMessage).mockImplementation(((type: string) => {
    if (type === 'listPlaybooks')
      return Promise.resolve({
        items,
        nextCursor: null,
        hasMore: false,
        source: 'network',
        fetchedAt: Date.now(),
      });
    if (type === 'refreshPlaybooks') return refresh();
    if (type === 'listBacktests') return Promise.resolve({ items: [], nextCursor: null, hasMore: false });
    return new Promise(() => undefined);
  }) as typeof sendMessage);
}

/** What Tab reaches inside `root`: focusable, enabled, not taken out of the order. */
function tabStops(root: Element): HTMLElement[] {
  return [
    ...root.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]'),
  ].filter((el) => !(el as HTMLButtonElement).disabled && el.tabIndex >= 0);
}

const rows = async () => {
  const list = screen.getByRole('list', { name: 'Playbooks' });
  await within(list).findByText('Grid capex');
  return within(list).getAllByRole('listitem');
};

beforeEach(() => {
  vi.mocked(sendMessage).mockReset();
});
afterEach(cleanup);

describe('the playbook list', () => {
  it('has one Tab stop per row by default: the title, which opens the playbook', async () => {
    answer();
    render(<PlaybooksTab events={[]} plans={[]} providers={[]} />);
    for (const row of await rows()) {
      const stops = tabStops(row);
      expect(stops.map((el) => el.tagName)).toEqual(['BUTTON']);
      expect(stops[0].textContent).toBe(row.querySelector('.badge')?.previousElementSibling?.textContent);
    }
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Water rights' }));
    expect(vi.mocked(sendMessage)).toHaveBeenCalledWith('readPlaybook', { id: 'pb_2' });
  });

  it('"Choose playbooks…" (pressed) gives each row one checkbox named by its title; Compare takes 2 to 4; Done leaves', async () => {
    answer();
    render(<PlaybooksTab events={[]} plans={[]} providers={[]} />);
    const all = await rows();
    const choose = screen.getByRole('button', { name: 'Choose playbooks…' });
    expect(choose.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(choose);
    expect(choose.getAttribute('aria-pressed')).toBe('true');
    for (const row of all) expect(tabStops(row).map((el) => el.getAttribute('type'))).toEqual(['checkbox']);
    const compare = () => screen.getByRole<HTMLButtonElement>('button', { name: /^Compare \(/ });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Rail freight' }));
    expect(compare().textContent).toBe('Compare (1)');
    expect(compare().disabled).toBe(true);
    expect(screen.getByText('Choose 2–4 playbooks to compare (1 chosen).').id).toBe(
      compare().getAttribute('aria-describedby'),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Grid capex' }));
    expect(compare().disabled).toBe(false);
    for (const title of ['Water rights', 'Copper miners', 'Solar glass'])
      fireEvent.click(screen.getByRole('checkbox', { name: title }));
    expect(compare().disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Solar glass' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Water rights' }));
    fireEvent.click(compare());
    // In the order chosen.
    const compared = vi.mocked(sendMessage).mock.calls.filter(([type]) => type === 'listBacktests');
    expect(compared.map(([, request]) => request)).toEqual([
      { playbookId: 'pb_3' },
      { playbookId: 'pb_1' },
      { playbookId: 'pb_4' },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(document.activeElement).toBe(choose);
    expect(choose.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /^Compare \(/ })).toBeNull();
    // The choice went with the mode.
    fireEvent.click(choose);
    expect(screen.getAllByRole<HTMLInputElement>('checkbox').filter((box) => box.checked)).toHaveLength(0);
  });

  it('"Check for updates" reads the chosen playbooks again in one batch and says which could not be read', async () => {
    answer(() =>
      Promise.resolve([
        { id: 'pb_2', playbook: { ...items[1], title: 'Water rights (2027)' } },
        { id: 'pb_5', error: { status: 503, message: 'The service is busy.' } },
      ]),
    );
    render(<PlaybooksTab events={[]} plans={[]} providers={[]} />);
    await rows();
    fireEvent.click(screen.getByRole('button', { name: 'Choose playbooks…' }));
    const check = screen.getByRole<HTMLButtonElement>('button', { name: 'Check for updates (0)' });
    expect(check.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Water rights' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Solar glass' }));
    fireEvent.click(screen.getByRole('button', { name: 'Check for updates (2)' }));
    expect(vi.mocked(sendMessage)).toHaveBeenCalledWith('refreshPlaybooks', { ids: ['pb_2', 'pb_5'] });
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Checked 1 of 2 with the service.'),
    );
    expect(screen.getByRole('checkbox', { name: 'Water rights (2027)' })).not.toBeNull();
    const failed = screen.getByRole('checkbox', { name: 'Solar glass' }).closest('li')!;
    expect(within(failed).getByRole('note').textContent).toBe('Not checked (503): The service is busy.');
  });
});
