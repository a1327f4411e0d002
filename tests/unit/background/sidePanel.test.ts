import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { openSidePanelFor } from '@/lib/background/sidePanel';
import { setLogSink, type LogRecord } from '@/lib/log';

const api = fakeBrowser as unknown as Record<string, unknown>;

afterEach(() => {
  delete api.sidePanel;
  delete api.sidebarAction;
});

describe('openSidePanelFor', () => {
  it("opens Firefox's sidebar within the click, before anything is awaited", () => {
    const open = vi.fn(() => Promise.resolve());
    api.sidebarAction = { open };
    openSidePanelFor({ id: 3, windowId: 1 });
    expect(open).toHaveBeenCalledOnce();
  });

  it("opens Chrome's side panel on the clicked tab, or its window when the tab has no id", () => {
    const open = vi.fn(() => Promise.resolve());
    api.sidePanel = { open };
    openSidePanelFor({ id: 3, windowId: 1 });
    openSidePanelFor({ id: -1, windowId: 9 });
    expect(open.mock.calls).toEqual([[{ tabId: 3 }], [{ windowId: 9 }]]);
  });

  it('does nothing where the browser has neither', () => {
    expect(() => openSidePanelFor({ id: 3 })).not.toThrow();
  });

  it.each([
    ['sidebarAction', 'sidebar.open-failed'],
    ['sidePanel', 'sidepanel.open-failed'],
  ])('logs a refused open (%s) instead of leaving an unhandled rejection', async (name, event) => {
    const records: LogRecord[] = [];
    const restore = setLogSink((record) => records.push(record));
    try {
      api[name] = { open: vi.fn(() => Promise.reject(new Error('no user gesture'))) };
      openSidePanelFor({ id: 3 });
      await vi.waitFor(() => expect(records.map((record) => record.event)).toEqual([event]));
      expect(records[0].level).toBe('warn');
    } finally {
      restore();
    }
  });
});
