/**
 * The layout matrix: every surface at its real size, in the states a user meets, fits its
 * window. For each state the page is measured (tests/e2e/helpers/geometry.ts: no sideways overflow, no
 * element past the window's edge, no text cut without a title, no stretched checkbox, the primary
 * actions on screen without scrolling; the popup's freshness line on at most two lines) and a screenshot of the window is kept under test-results.
 *
 * Sizes: the popup as wide as Chrome would draw it (it sizes a popup to its page's narrowest layout,
 * up to 800×600: helpers/geometry.ts popupWidth), which must be at most 400 px; the side panel 360×800 (its narrowest
 * usual width); the options page a 800×600 tab; the confirm window 520×690 (the 520×720 window it is
 * created as, less its title bar).
 *
 * What runs (one browser and one sandbox per test, the states one after another in it): English goes
 * through every state (service down with nothing saved, empty, 50 playbooks with long titles
 * and tickers, the confirm window for a create and an edit, offline with the list saved, a refused key),
 * light and dark for the popup. German, Japanese and Arabic go through the heaviest: service down, 50
 * long rows, the confirm window, offline with the saved list, a refused key; Japanese and Arabic dark.
 * The popup's rows are counted: at least six whole ones with 50 long rows, four with the service
 * down, the list saved and a draft waiting.
 */
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Locator, Page, TestInfo } from '@playwright/test';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID } from '../../sandbox/store';
import { expect, test as base, type ExtensionHandle } from './fixtures';
import {
  hiddenActions,
  misfits,
  POPUP_MAX,
  POPUP_WIDTH_LIMIT,
  popupWidth,
  shoot,
  textLines,
  type Misfit,
} from './helpers/geometry';
import { message } from './helpers/locales';

/** Each matrix test starts with no playbooks of its user: the empty state first, then 50 long ones. */
const test = base.extend({
  sandbox: async ({ dialect }, use) => {
    const sandbox = await startSandbox({
      dialect,
      port: 0,
      db: ':memory:',
      seed: 0,
      quiet: true,
      demoKey: `pbk_sentinel_${randomBytes(12).toString('hex')}`,
    });
    await use(sandbox);
    await sandbox.close();
  },
});

type Scheme = 'light' | 'dark';

const SIDE_PANEL = { width: 360, height: 800 };
const OPTIONS = { width: 800, height: 600 };
const CONFIRM = { width: 520, height: 690 };

/** Long titles that differ only at their end, and long tickers: what rows must show without cutting. */
function addLongPlaybooks(sandbox: Sandbox, count: number): void {
  const tickers = ['NEE', 'BRK.B', 'XLU', 'DUK', 'SO', 'AEP', 'LONGTICKER', 'ABCDEFGHIJ', 'RDS.A', 'SPY'];
  for (let i = 0; i < count; i++)
    sandbox.db.createPlaybook(DEMO_USER_ID, {
      title: `Grid modernization and transmission capex: regulated utilities with rate-base growth above 8 % a year through 2030, variant ${i + 1}`,
      thesis: 'Utility capex keeps rising with data-centre load.',
      visibility: (['private', 'unlisted', 'public'] as const)[i % 3],
      tickers: tickers.slice(0, 1 + (i % tickers.length)),
    });
}

interface Matrix {
  context: BrowserContext;
  extension: ExtensionHandle;
  testInfo: TestInfo;
  locale: string;
  schemes: Scheme[];
}

/** Measures `page` in each colour scheme and saves its screenshots; the misfits are collected by name. */
async function measure(
  m: Matrix,
  page: Page,
  name: string,
  actions: Locator[] = [],
  schemes: Scheme[] = m.schemes,
): Promise<string[]> {
  const found: Misfit[] = [];
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await misfits(page)), ...(await hiddenActions(page, actions)));
    await shoot(page, m.testInfo, `${m.locale}-${name}-${scheme}`);
  }
  const unique = [...new Set(found.map((f) => `${name}: ${f.kind} ${f.what}`))];
  return unique;
}

async function openAt(m: Matrix, file: string, size: { width: number; height: number }): Promise<Page> {
  const page = await m.context.newPage();
  await page.setViewportSize(size);
  await page.goto(m.extension.url(file));
  return page;
}

/** The popup, once the state it should show is drawn (`ready`), and the side panel likewise. */
async function popupAndPanel(
  m: Matrix,
  name: string,
  ready: { popup: (page: Page) => Locator; panel: (page: Page) => Locator },
  lines: { what: (page: Page) => Locator; max: number }[] = [],
  minRows = 0,
): Promise<string[]> {
  const popup = await openAt(m, 'popup.html', POPUP_MAX);
  await expect(ready.popup(popup)).toBeVisible({ timeout: 30_000 });
  // Drawn at the width Chrome would give it; wider than 400 px is a misfit of its own.
  const width = await popupWidth(popup);
  await popup.setViewportSize({ width, height: POPUP_MAX.height });
  const links = popup.locator('.popup-head nav a');
  const found = await measure(m, popup, `popup-${name}`, [links.first(), links.last()]);
  if (width > POPUP_WIDTH_LIMIT) found.push(`popup-${name}: popup-width the popup grows to ${width} px`);
  const rows = await rowsInView(popup);
  if (rows < minRows) found.push(`popup-${name}: too-few-rows ${rows} whole rows in ${POPUP_MAX.height} px`);
  for (const line of lines) {
    const drawn = await textLines(line.what(popup));
    if (drawn > line.max)
      found.push(`popup-${name}: too-many-lines ${line.what(popup).toString()} on ${drawn} lines`);
  }
  await popup.close();
  const panel = await openAt(m, 'sidepanel.html', SIDE_PANEL);
  await expect(ready.panel(panel)).toBeVisible({ timeout: 30_000 });
  found.push(...(await measure(m, panel, `sidepanel-${name}`, [panel.getByRole('tab').first()])));
  await panel.close();
  return found;
}

/** The popup's playbook rows drawn whole inside its window (the list is the popup's reason to be). */
async function rowsInView(page: Page): Promise<number> {
  const height = page.viewportSize()!.height;
  const bottoms = await page
    .locator('.pb-row')
    .evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().bottom));
  return bottoms.filter((bottom) => bottom <= height).length;
}

/** The rows a popup of two-line titles shows whole in 600 px in the normal state, in every language. */
const MIN_ROWS = 6;
/** With the service down and a draft waiting: the draft, the status and the saved-copy line come first. */
const MIN_ROWS_DOWN_WITH_DRAFT = 4;

/** The drafts the confirm windows left (longRows) discarded down to one: a single draft waiting. */
async function keepOneDraft(m: Matrix): Promise<void> {
  const popup = await openAt(m, 'popup.html', POPUP_MAX);
  const drafts = popup.locator('.outbox-row');
  await expect(drafts.first()).toBeVisible();
  for (let left = await drafts.count(); left > 1; left--) {
    await drafts.first().locator('.outbox-actions button').last().click();
    await expect(drafts).toHaveCount(left - 1);
  }
  await popup.close();
}

const popupRows = (page: Page) => page.locator('.pb-row').first();
const popupAlert = (page: Page) => page.locator('.callout.problem[role="alert"]');
const panelRows = (page: Page) => page.locator('.playbook-list > li').first();
const panelError = (page: Page) => page.locator('[role="alert"]').first();

/** A write asked for from an extension page; its confirm window measured at its real size. */
async function confirmWindow(m: Matrix, name: string, payload: Record<string, unknown>): Promise<string[]> {
  const from = await openAt(m, 'options.html', OPTIONS);
  const opened = m.context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await from.evaluate(
    (request) => chrome.runtime.sendMessage({ type: 'requestWrite', payload: request }),
    payload,
  );
  const confirm = await opened;
  await confirm.setViewportSize(CONFIRM);
  const dialog = confirm.getByRole('dialog', { name: message(m.locale, 'confirm.dialog') });
  await expect(dialog).toBeVisible();
  const actions = [
    dialog.getByRole('button', { name: message(m.locale, 'confirm.confirm'), exact: true }),
    dialog.getByRole('button', { name: message(m.locale, 'confirm.cancel'), exact: true }),
  ];
  const found = await measure(m, confirm, `confirm-${name}`, actions);
  await confirm.close();
  await from.close();
  return found;
}

async function optionsPage(m: Matrix, name: string): Promise<string[]> {
  const page = await openAt(m, 'options.html', OPTIONS);
  await expect(page.locator('form').first()).toBeVisible();
  const found = await measure(m, page, `options-${name}`);
  await page.close();
  return found;
}

/** The service refuses every connection before anything was saved: the popup's worst first impression. */
async function serviceDown(m: Matrix, sandbox: Sandbox): Promise<string[]> {
  sandbox.setFaults({ resetConnection: 1_000_000 });
  await m.extension.configure();
  const found = await popupAndPanel(m, 'service-down', { popup: popupAlert, panel: panelError });
  sandbox.resetFaults();
  return found;
}

async function longRows(m: Matrix, sandbox: Sandbox): Promise<string[]> {
  addLongPlaybooks(sandbox, 50);
  const found = await popupAndPanel(m, 'long-rows', { popup: popupRows, panel: panelRows }, [], MIN_ROWS);
  const first = sandbox.db.getPlaybook(
    (
      (await (
        await fetch(`${sandbox.apiUrl}/playbooks?limit=1`, {
          headers: { authorization: `Bearer ${sandbox.demoKey}` },
        })
      ).json()) as { data: { id: string }[] }
    ).data[0].id,
  )!;
  found.push(
    ...(await confirmWindow(m, 'create', {
      operationId: 'createPlaybook',
      body: {
        title: first.title,
        thesis: 'Utility capex keeps rising with data-centre load; add below the median forward P/E. '.repeat(
          4,
        ),
        visibility: 'private',
        tickers: first.tickers,
        source: {
          url: 'https://example.com/research/a/very/long/path/to/the/grid-capex-notes',
          title: first.title,
          excerpt: '',
        },
      },
    })),
    ...(await confirmWindow(m, 'edit', {
      operationId: 'updatePlaybook',
      playbookId: first.id,
      body: { title: `${first.title} (renamed)` },
      ifMatch: first.etag,
    })),
    ...(await optionsPage(m, 'normal')),
  );
  return found;
}

async function offlineWithCache(m: Matrix, sandbox: Sandbox): Promise<string[]> {
  await keepOneDraft(m);
  sandbox.setFaults({ resetConnection: 1_000_000 });
  // The saved list, once the refresh has failed (not while it is still trying).
  const cached = (page: Page) => page.locator('.freshness.stale');
  // The list's freshness line says in a word that the list is old: at most two lines, in every language.
  const freshness = { what: (page: Page) => page.locator('.freshness.stale p'), max: 2 };
  const found = await popupAndPanel(
    m,
    'offline-cached',
    { popup: cached, panel: panelRows },
    [freshness],
    MIN_ROWS_DOWN_WITH_DRAFT,
  );
  sandbox.resetFaults();
  return found;
}

async function wrongKey(m: Matrix): Promise<string[]> {
  await m.extension.configure({ key: `pbk_wrong_${randomBytes(12).toString('hex')}` });
  const found = await popupAndPanel(m, 'wrong-key', { popup: popupAlert, panel: panelError });
  found.push(...(await optionsPage(m, 'wrong-key')));
  return found;
}

test.describe('English, every state', () => {
  test('popup, side panel, options and confirm window fit in every state', async ({
    context,
    extension,
    sandbox,
  }, testInfo) => {
    const m: Matrix = { context, extension, testInfo, locale: 'en', schemes: ['light'] };
    const found: string[] = [];
    found.push(...(await serviceDown(m, sandbox)));
    found.push(
      ...(await popupAndPanel(m, 'empty', {
        popup: (page) => page.locator('.empty'),
        panel: (page) => page.getByText(message('en', 'sidepanel.list.empty')),
      })),
    );
    m.schemes = ['light', 'dark'];
    found.push(...(await longRows(m, sandbox)));
    found.push(...(await offlineWithCache(m, sandbox)));
    found.push(...(await wrongKey(m)));
    expect(found).toEqual([]);
  });
});

for (const [locale, schemes] of [
  ['de', ['light']],
  ['ja', ['dark']],
  ['ar', ['light', 'dark']],
] as const) {
  test.describe(`${locale}, the heaviest states`, () => {
    test.use({ uiLanguage: locale });
    test(`${locale}: service down, 50 long rows, confirm, offline with cache, wrong key`, async ({
      context,
      extension,
      sandbox,
    }, testInfo) => {
      const m: Matrix = { context, extension, testInfo, locale, schemes: [...schemes] };
      const found = [
        ...(await serviceDown(m, sandbox)),
        ...(await longRows(m, sandbox)),
        ...(await offlineWithCache(m, sandbox)),
        ...(await wrongKey(m)),
      ];
      expect(found).toEqual([]);
    });
  });
}
