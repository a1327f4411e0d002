/**
 * Firefox journeys through the browser's own surfaces: the page offer and the confirm window,
 * the native context menu, the sidebar and the keyboard shortcut.
 *
 * WebDriver cannot click native menus, so the menu journeys open the real context menu with a
 * right click and choose the item in the browser's own window (chrome scope, which
 * --remote-allow-system-access opens): Firefox then builds the click's info and user gesture
 * itself, as for a person choosing the item.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID } from '../../sandbox/store';
import {
  configure,
  launchFirefox,
  sandboxForTest,
  SIDEBAR_ID,
  textOf,
  typeInto,
  until,
  type Firefox,
} from './harness';

let firefox: Firefox;
let sandbox: Sandbox;

interface DraftEntry {
  id: string;
  origin: string;
  draft: { body: { title: string; thesis: string; tickers: string[]; source: { url: string } } };
}

beforeAll(async () => {
  firefox = await launchFirefox();
});
afterAll(async () => {
  await firefox?.close();
});
beforeEach(async () => {
  sandbox = await sandboxForTest();
  await configure(firefox, sandbox);
});
afterEach(async () => {
  await firefox.closeTabs();
  await sandbox.close();
});

async function outbox(): Promise<DraftEntry[]> {
  const answer = await firefox.send('listOutbox');
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as DraftEntry[];
}

async function demoQuote(symbol: string): Promise<Page> {
  const page = await firefox.browser.newPage();
  await page.goto(`${sandbox.baseUrl}/demo/quote/${symbol}`);
  await page.waitForSelector('playbook-companion-offer');
  return page;
}

/** Firefox names an extension's menu items after its widget id. */
const MENU_ITEM_PREFIX = `${SIDEBAR_ID.replace(/-sidebar-action$/, '')}-menuitem-`;

const isSidebarOpen = () =>
  firefox.chrome<string>(`SidebarController.isOpen ? SidebarController.currentID : ''`);
const closeSidebar = async () => {
  await firefox.chrome(`SidebarController.hide()`);
  await until(async () => (await isSidebarOpen()) === '', 'the sidebar closed');
};

/** Right-clicks at the element's centre and chooses `label` in the real context menu. */
async function chooseInContextMenu(page: Page, selector: string, label: string): Promise<void> {
  const box = await (await page.waitForSelector(selector))?.boundingBox();
  if (!box) throw new Error(`${selector} has no box`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
  await until(
    () => firefox.chrome<boolean>(`document.getElementById('contentAreaContextMenu').state === 'open'`),
    'the context menu',
  );
  const find = `(() => {
    const items = [...document.getElementById('contentAreaContextMenu').querySelectorAll('menuitem')];
    return items.find((item) => item.id.startsWith('${MENU_ITEM_PREFIX}') && item.label === ${JSON.stringify(label)});
  })()`;
  // Several items of one extension sit in its submenu: open it as the pointer would.
  const offered = await firefox.chrome<string>(`(() => {
    const item = ${find};
    if (!item) return 'not offered';
    const popup = item.closest('menupopup');
    if (popup.id !== 'contentAreaContextMenu' && popup.state !== 'open') popup.parentNode.openMenu(true);
    return 'offered';
  })()`);
  expect(offered, label).toBe('offered');
  await until(() => firefox.chrome<boolean>(`${find}.closest('menupopup').state === 'open'`), 'the submenu');
  const chosen = await firefox.chrome<string>(`(() => {
    const item = ${find};
    item.closest('menupopup').activateItem(item);
    return 'chosen';
  })()`);
  expect(chosen).toBe('chosen');
}

it('the offer, reached by keyboard, opens the confirm window; a 5xx after commit still writes exactly once', async () => {
  const page = await demoQuote('NVDA');
  // The offer is in a closed shadow root: a keyboard user tabs to it (the page has no other stop).
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('PLAYBOOK-COMPANION-OFFER');
  await page.keyboard.press('Enter');

  const confirm = await firefox.pageAt('/confirm.html?draft=');
  await confirm.waitForSelector('::-p-aria(Confirm[role="button"])');
  const dialog = await textOf(confirm, '[role="dialog"]');
  expect(dialog).toContain('Demo Investor');
  expect(dialog).toContain('Decision support, not financial advice');
  const title = `Firefox proof ${Math.random().toString(36).slice(2, 8)}`;
  await typeInto(confirm, 'Title', title);

  sandbox.clearRequests();
  sandbox.setFaults({ serverErrorAfterCommit: 1 });
  await confirm.locator('::-p-aria(Confirm[role="button"])').click();
  await until(async () => (await textOf(confirm)).includes('Sent'), 'Sent', 20_000);

  const writes = sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/api/v1/playbooks');
  expect(writes).toHaveLength(2); // the 500 after the commit, then the replay
  expect(new Set(writes.map((w) => w.headers['idempotency-key'])).size).toBe(1);
  expect(new Set(writes.map((w) => w.body)).size).toBe(1);
  expect(JSON.parse(writes[0].body)).toMatchObject({ title, tickers: ['NVDA'], visibility: 'private' });
  expect(sandbox.db.listPlaybooks({}, null, 1_000_000).rows.filter((p) => p.title === title)).toHaveLength(1);
  expect(await outbox()).toHaveLength(0);
});

it('"On this page": the quote page\'s content script answers the worker its tickers, and a page without one lists nothing', async () => {
  const title = `Firefox tracks NVDA ${Math.random().toString(36).slice(2, 8)}`;
  sandbox.db.createPlaybook(DEMO_USER_ID, {
    title,
    thesis: 'Margins hold.',
    tickers: ['NVDA'],
    visibility: 'private',
  });
  // Matching reads the worker's cache of the list, as after the popup's first page.
  expect((await firefox.send('listPlaybooks', {})).ok).toBe(true);
  const page = await demoQuote('NVDA');
  // The extension may read this tab's URL (loopback access comes with the development build).
  const tabId = await firefox.inExtension(async (url) => {
    const tabs = (
      globalThis as unknown as {
        browser: { tabs: { query(q: unknown): Promise<{ id: number; url?: string }[]> } };
      }
    ).browser.tabs;
    return (await tabs.query({})).find((tab) => tab.url === url)?.id;
  }, page.url());
  expect(tabId).toBeTypeOf('number');
  const matched = async () => {
    const answer = await firefox.send('getPageMatches', { tabId });
    if (!answer.ok) throw new Error(answer.error.message);
    return (answer.value as { matches: { title: string }[] }).matches.map((match) => match.title);
  };
  await until(async () => (await matched()).includes(title), 'the playbook on this page');

  // Off the content script's pages: no script answers for the tab, so nothing is listed.
  await page.goto(`${sandbox.baseUrl}/llms.txt`);
  expect(await matched()).toEqual([]);
});

it('each context-menu item: selection, link and page become drafts in the confirm window', async () => {
  const page = await demoQuote('AMD');
  await page.evaluate(() => {
    const link = document.createElement('a');
    link.id = 'research';
    link.href = 'https://research.example/notes/amd-datacentre';
    link.textContent = 'AMD data-centre research note';
    document.querySelector('main')?.append(link);
    const lead = document.querySelector('main p:last-of-type');
    if (lead) getSelection()?.selectAllChildren(lead);
  });
  const selected = await page.evaluate(() => getSelection()?.toString() ?? '');
  expect(selected.length).toBeGreaterThan(20);

  const cases = [
    { selector: 'main p:last-of-type', label: 'Turn selection into a playbook' },
    { selector: '#research', label: 'Turn this link into a playbook' },
    { selector: 'h1', label: 'Turn this page into a playbook' },
  ];
  for (const { selector, label } of cases) {
    // The page item is offered only where nothing more specific (a selection) is under the pointer.
    if (label.includes('page')) await page.evaluate(() => getSelection()?.removeAllRanges());
    await chooseInContextMenu(page, selector, label);
    const confirm = await firefox.pageAt('/confirm.html?draft=');
    await confirm.waitForSelector('::-p-aria(Confirm[role="button"])');
    const draftId = await confirm.evaluate(() => new URL(location.href).searchParams.get('draft'));
    const entry = (await outbox()).find((candidate) => candidate.id === draftId);
    expect(entry?.origin, label).toBe('context-menu');
    const body = entry!.draft.body;
    if (label.includes('selection')) expect(body.thesis).toContain(selected.trim().slice(0, 40));
    if (label.includes('link')) expect(body.source.url).toBe('https://research.example/notes/amd-datacentre');
    if (label.includes('page')) expect(body.source.url).toBe(`${sandbox.baseUrl}/demo/quote/AMD`);
    // A good draft on the real menu path too: the quote page's ticker, and for the
    // page the story's headline, never the tab's title with the site's suffix.
    if (!label.includes('link')) expect(body.tickers, label).toContain('AMD');
    if (label.includes('page')) {
      expect(body.title).toContain('what would have to be true');
      expect(body.title).not.toContain('Sandbox Markets');
    }
    // Cancel: nothing is written and the draft goes.
    // A click that lands while the window redraws (its draft and account arrive) can be lost on a
    // busy machine; Cancel is idempotent, so it is pressed again until the draft is gone. What
    // Cancel does is the write-flow suite's; here it only clears the way for the next item.
    await until(
      async () => {
        if (!(await outbox()).some((candidate) => candidate.id === draftId)) return true;
        await confirm
          .locator('::-p-aria(Cancel[role="button"])')
          .setTimeout(2_000)
          .click()
          .catch(() => undefined);
        return false;
      },
      'draft removed',
      45_000,
    );
    await confirm.close().catch(() => undefined);
  }
  expect(
    sandbox.requests().filter((r) => r.method === 'POST' && r.path === '/api/v1/playbooks'),
  ).toHaveLength(0);
});

it('the menu item "Open the Playbooks side panel" opens the sidebar with the side panel page', async () => {
  const page = await demoQuote('NVDA');
  await closeSidebar();
  await chooseInContextMenu(page, 'h1', 'Open the Playbooks side panel');
  await until(async () => (await isSidebarOpen()) === SIDEBAR_ID, 'our sidebar open');
  // The sidebar shows the side panel page.
  const panelUrl = () =>
    firefox.chrome<string>(
      `document.getElementById('sidebar')?.contentDocument?.getElementById('webext-panels-browser')?.currentURI?.spec ?? ''`,
    );
  await until(
    async () => (await panelUrl()) === firefox.url('sidepanel.html'),
    'the side panel page in the sidebar',
  );
});

/**
 * WebDriver's key actions reach the page only, never Firefox's own shortcut handling (measured:
 * Alt+Shift+P sent with page.keyboard leaves the sidebar shut). So the keys go into the browser
 * window through Firefox's text input processor, as the OS would deliver them.
 */
async function pressInBrowserWindow(): Promise<void> {
  const sent = await firefox.chrome<string>(`(() => {
    const tip = Cc['@mozilla.org/text-input-processor;1'].createInstance(Ci.nsITextInputProcessor);
    if (!tip.beginInputTransactionForTests(window)) return 'no input transaction';
    const alt = new KeyboardEvent('', { key: 'Alt', code: 'AltLeft', keyCode: 18 });
    const shift = new KeyboardEvent('', { key: 'Shift', code: 'ShiftLeft', keyCode: 16 });
    const p = new KeyboardEvent('', { key: 'P', code: 'KeyP', keyCode: 80 });
    tip.keydown(alt);
    tip.keydown(shift);
    tip.keydown(p);
    tip.keyup(p);
    tip.keyup(shift);
    tip.keyup(alt);
    return 'sent';
  })()`);
  expect(sent).toBe('sent');
}

it('the keyboard shortcut Alt+Shift+P opens and closes the sidebar', async () => {
  const page = await demoQuote('NVDA');
  await page.bringToFront();
  await closeSidebar();
  await pressInBrowserWindow();
  await until(async () => (await isSidebarOpen()) === SIDEBAR_ID, 'our sidebar open by the shortcut');
  await pressInBrowserWindow();
  await until(async () => (await isSidebarOpen()) === '', 'the sidebar closed by the shortcut');
});
