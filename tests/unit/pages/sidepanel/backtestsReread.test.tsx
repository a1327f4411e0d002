// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/preact';
import { sendMessage } from '@/lib/messaging/client';
import { BACKTESTS_REREAD_MS, useBacktests } from '@/lib/pages/sidepanel/useBacktests';

vi.mock('@/lib/messaging/client', () => ({ sendMessage: vi.fn() }));

function Probe({ version }: { version: string }) {
  useBacktests('pb_1', version);
  return null;
}

const reads = () => vi.mocked(sendMessage).mock.calls.filter(([type]) => type === 'listBacktests').length;

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(sendMessage).mockReset();
  vi.mocked(sendMessage).mockImplementation(() => new Promise(() => undefined));
});
afterEach(() => vi.useRealTimers());

describe('the Backtests list under a flood of completions', () => {
  it('reads again at most once a second, and always after the last completion', () => {
    const view = render(<Probe version="v0" />);
    expect(reads()).toBe(1);
    // 300 completions for the open playbook within half a second.
    for (let i = 1; i <= 300; i++) view.rerender(<Probe version={`v${i}`} />);
    vi.advanceTimersByTime(BACKTESTS_REREAD_MS / 2);
    for (let i = 301; i <= 600; i++) view.rerender(<Probe version={`v${i}`} />);
    expect(reads()).toBe(1);
    vi.advanceTimersByTime(BACKTESTS_REREAD_MS);
    // One read for the whole burst, made after it.
    expect(reads()).toBe(2);
    vi.advanceTimersByTime(10 * BACKTESTS_REREAD_MS);
    expect(reads()).toBe(2);
    view.rerender(<Probe version="v601" />);
    vi.advanceTimersByTime(BACKTESTS_REREAD_MS);
    expect(reads()).toBe(3);
  });
});
