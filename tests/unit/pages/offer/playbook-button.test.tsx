// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlaybookButton } from '@/lib/pages/offer/PlaybookButton';

afterEach(cleanup);

describe('PlaybookButton', () => {
  it('offers the action by its stable name and shows at most three tickers as text', () => {
    const onActivate = vi.fn();
    render(
      <PlaybookButton
        tickers={['AAPL', '<b>X</b>', 'MSFT', 'NVDA']}
        onActivate={onActivate}
        onDismiss={() => undefined}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Turn this into a playbook' }));
    expect(onActivate).toHaveBeenCalledOnce();
    expect(screen.getByRole('group').textContent).toContain('AAPL · <b>X</b> · MSFT');
    expect(screen.getByRole('group').textContent).not.toContain('NVDA');
    expect(document.querySelector('b')).toBeNull();
  });

  it('waits while busy, reports in a status, and can be hidden for the site', () => {
    const onDismiss = vi.fn();
    render(
      <PlaybookButton
        busy
        message="Draft saved."
        tickers={[]}
        onActivate={() => undefined}
        onDismiss={onDismiss}
      />,
    );
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Turn this into a playbook' }).disabled,
    ).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Draft saved.');
    fireEvent.click(screen.getByRole('button', { name: 'Hide on this site' }));
    expect(onDismiss).toHaveBeenCalledOnce();
  });
});
