import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { sidePanelFocusItem } from '@/lib/pages/navigation';
import { openPlaybookInSidePanel, prepareSidePanel } from '@/lib/pages/popup/openSidePanel';

type Patchable = { sidePanel?: unknown; sidebarAction?: unknown };
const patched = fakeBrowser as unknown as Patchable;
const original = { sidePanel: patched.sidePanel, sidebarAction: patched.sidebarAction };

/** Puts the fake browser back as it was: reset() walks every property it has. */
function restore(): void {
  for (const name of ['sidePanel', 'sidebarAction'] as const) {
    if (original[name] === undefined) delete patched[name];
    else patched[name] = original[name];
  }
}

describe('openPlaybookInSidePanel (Chrome side panel)', () => {
  const open = vi.fn((_options: { windowId: number }) => Promise.resolve());
  beforeEach(() => {
    open.mockClear();
    // The fake browser carries Firefox's sidebarAction; this is the Chrome path.
    patched.sidebarAction = undefined;
    patched.sidePanel = { open };
  });
  afterEach(() => {
    restore();
    vi.restoreAllMocks();
  });

  it('opens the panel on the current window and records which playbook to show', async () => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 7 } as never);
    const before = Date.now();
    await openPlaybookInSidePanel('pb_42');
    expect(open).toHaveBeenCalledWith({ windowId: 7 });
    const focus = await sidePanelFocusItem.getValue();
    expect(focus?.playbookId).toBe('pb_42');
    expect(focus?.at).toBeGreaterThanOrEqual(before);
  });

  it('after prepareSidePanel, calls sidePanel.open synchronously, so the user gesture survives', async () => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 9 } as never);
    await prepareSidePanel();
    const done = openPlaybookInSidePanel('pb_1');
    expect(open).toHaveBeenCalledWith({ windowId: 9 });
    await done;
    expect((await sidePanelFocusItem.getValue())?.playbookId).toBe('pb_1');
  });
});

describe('openPlaybookInSidePanel (Firefox sidebar)', () => {
  afterEach(restore);

  it('opens the sidebar and records the playbook', async () => {
    const open = vi.fn(() => Promise.resolve());
    patched.sidebarAction = { open };
    await openPlaybookInSidePanel('pb_7');
    expect(open).toHaveBeenCalledOnce();
    expect((await sidePanelFocusItem.getValue())?.playbookId).toBe('pb_7');
  });
});
