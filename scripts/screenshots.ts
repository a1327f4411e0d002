/**
 * `npm run screenshots`: builds the extension, starts a sandbox, loads both into headless
 * Chromium and saves the README's pictures of the popup (also with "On this page" over a finance
 * page), the options page, the confirm dialog and the side panel to docs/screenshots/. Real pages against the real sandbox, nothing drawn.
 * The backtest detail and the comparison are taken light and dark; SCREENSHOTS_ONLY=backtests takes those alone.
 *
 * `npm run screenshots -- --locale de` (or SCREENSHOT_LOCALE=de) runs Chromium in that UI language
 * (LANGUAGE, as the e2e locale journeys do) and names the files with it: popup-de.png,
 * sidepanel-ar.png. The names the script waits for are read from locales/<locale>.yml.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { startSandbox } from '../sandbox/server';
import { CHROMIUM_ARGS, findChromium, welcomeTab } from '../tests/e2e/chromium';
import { readLocale, type Messages } from '../build/i18nChecks';

const OUT_DIR = process.env.WXT_OUT_DIR ?? '.output-screenshots';
const EXTENSION_DIR = `${process.cwd()}/${OUT_DIR}/chrome-mv3`;
const SHOTS = 'docs/screenshots';

/** The UI language to take the pictures in (a locales/ file name: de, ar, pt_BR), or English. */
function chosenLocale(): string | undefined {
  const at = process.argv.indexOf('--locale');
  const value = at >= 0 ? process.argv[at + 1] : process.env.SCREENSHOT_LOCALE;
  if (!value || value === 'en') return undefined;
  if (!existsSync(`locales/${value}.yml`)) throw new Error(`no locales/${value}.yml for --locale ${value}`);
  return value;
}

const LOCALE = chosenLocale();
const messages: Messages = LOCALE ? readLocale('locales', LOCALE) : {};

/** A name as the page shows it in LOCALE; English where no locale is chosen or the key is not there yet. */
function say(key: string, english: string, values: Record<string, string> = {}): string {
  const text = messages[key]?.replaceAll('$$', '$') ?? english;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** docs/screenshots/<name>.png, or <name>-<locale>.png in another language. */
function file(name: string): string {
  return `${SHOTS}/${name}${LOCALE ? `-${LOCALE}` : ''}.png`;
}

async function send(page: Page, type: string, payload: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ type, payload }) => {
      const answer = await chrome.runtime.sendMessage<
        unknown,
        { ok: boolean; value?: unknown; error?: { message: string } }
      >({ type, payload });
      if (!answer.ok) throw new Error(`${type}: ${answer.error?.message}`);
      return answer.value;
    },
    { type, payload },
  );
}

async function open(context: BrowserContext, url: string, width: number, height: number): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  await page.goto(url);
  return page;
}

async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  // Relative times and spinners settle before the picture.
  await page.waitForTimeout(300);
  await page.screenshot({ path: file(name), fullPage });
  console.log(`saved ${file(name)}`);
}

/** A seeded backtest in the playbook detail, and two playbooks compared: light, then dark. */
async function shootBacktests(
  context: BrowserContext,
  url: (page: string) => string,
  sandbox: Awaited<ReturnType<typeof startSandbox>>,
): Promise<void> {
  const user = sandbox.db.userForKey(sandbox.demoKey)!;
  const [newest, , third] = sandbox.db.listPlaybooks({ ownerId: user.id }, null, 3).rows;
  const detail = await open(
    context,
    url(`sidepanel.html?playbook=${encodeURIComponent(newest.id)}`),
    420,
    900,
  );
  const region = detail.getByRole('region', { name: say('backtests.region', 'Backtests') });
  const chart = region.getByRole('img', { name: say('backtests.equityCurve', 'Equity curve') });
  await chart.waitFor();
  await region.scrollIntoViewIfNeeded();
  // The keyboard readout part-way along the curve.
  await chart.focus();
  for (let i = 0; i < 200; i++) await detail.keyboard.press('ArrowLeft');
  for (const scheme of ['light', 'dark'] as const) {
    await detail.emulateMedia({ colorScheme: scheme });
    await detail.waitForTimeout(300);
    await region.screenshot({ path: file(`backtests-${scheme}`) });
    console.log(`saved ${file(`backtests-${scheme}`)}`);
  }
  await detail.close();

  const list = await open(context, url('sidepanel.html'), 420, 900);
  await list
    .getByRole('checkbox', {
      name: say('sidepanel.list.compareOne', `Compare ${newest.title}`, { title: newest.title }),
    })
    .check();
  await list
    .getByRole('checkbox', {
      name: say('sidepanel.list.compareOne', `Compare ${third.title}`, { title: third.title }),
    })
    .check();
  await list.getByRole('button', { name: say('sidepanel.list.compare', 'Compare'), exact: true }).click();
  const comparison = list.getByRole('region', { name: say('backtests.comparison.region', 'Comparison') });
  await comparison
    .getByRole('img', { name: say('backtests.comparison.chart', 'Comparison chart') })
    .waitFor();
  for (const scheme of ['light', 'dark'] as const) {
    await list.emulateMedia({ colorScheme: scheme });
    await list.waitForTimeout(300);
    await comparison.screenshot({ path: file(`comparison-${scheme}`) });
    console.log(`saved ${file(`comparison-${scheme}`)}`);
  }
  await list.close();
}

function stringEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function main(): Promise<void> {
  if (process.env.SCREENSHOTS_REUSE_BUILD !== '1')
    execFileSync('npx', ['wxt', 'build'], {
      stdio: 'inherit',
      env: { ...process.env, WXT_OUT_DIR: OUT_DIR },
    });
  mkdirSync(SHOTS, { recursive: true });
  const sandbox = await startSandbox({
    port: 0,
    db: ':memory:',
    seed: 25,
    quiet: true,
    demoKey: `pbk_demo_${randomBytes(12).toString('hex')}`,
  });
  const context = await chromium.launchPersistentContext('', {
    executablePath: findChromium(),
    headless: true,
    colorScheme: 'light',
    deviceScaleFactor: 1,
    // Chromium on Linux takes its UI language from LANGUAGE (--lang is ignored there).
    ...(LOCALE ? { env: { ...stringEnv(), LANGUAGE: LOCALE } } : {}),
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
    ],
  });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const id = new URL(worker.url()).host;
    const url = (page: string) => `chrome-extension://${id}/${page}`;
    // Installing opened the welcome tab: close it, so it draws nothing while pages are measured.
    await (await welcomeTab(context, 20_000))?.close();

    const setup = await open(context, url('options.html'), 800, 600);
    await send(setup, 'saveSettings', { serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl });
    await send(setup, 'saveApiKey', { key: sandbox.demoKey });
    await setup.close();

    await shootBacktests(context, url, sandbox);
    if (process.env.SCREENSHOTS_ONLY === 'backtests') return;

    const popup = await open(context, url('popup.html'), 380, 600);
    await popup
      .getByRole('list', { name: say('popup.list.label', 'Playbooks') })
      .getByRole('listitem')
      .nth(5)
      .waitFor();
    await popup
      .getByRole('region', { name: say('popup.status.heading', 'Service status') })
      .getByText(say('common.serviceStatus.operational', 'Operational'))
      .waitFor();
    // As the toolbar shows it: Chrome caps a popup at 600 px high and it scrolls.
    await shoot(popup, 'popup', false);
    const first = await popup
      .getByRole('list', { name: say('popup.list.label', 'Playbooks') })
      .getByRole('button')
      .first()
      .innerText();
    await popup.close();

    // "On this page": a finance page in front, the popup asks which playbooks track its tickers.
    const quote = await open(context, `${sandbox.baseUrl}/demo/quote/NVDA`, 1000, 700);
    await quote.waitForTimeout(1000);
    const onThisPage = await open(context, url('popup.html'), 380, 600);
    await quote.bringToFront();
    await onThisPage.reload();
    await onThisPage
      .getByRole('region', { name: say('common.pageMatches.heading', 'On this page') })
      .getByRole('button')
      .first()
      .waitFor();
    await onThisPage
      .getByRole('list', { name: say('popup.list.label', 'Playbooks') })
      .getByRole('listitem')
      .first()
      .waitFor();
    await shoot(onThisPage, 'popup-on-this-page', false);
    await onThisPage.close();
    await quote.close();

    const options = await open(context, url('options.html'), 820, 900);
    await options.getByRole('button', { name: say('options.testConnection', 'Test connection') }).click();
    await options.getByText(say('options.connected', 'Connected')).first().waitFor();
    await shoot(options, 'options');
    await options.close();

    // The side panel on the popup's first playbook, as a row click would leave it.
    const playbooks = (await (async () => {
      const page = await open(context, url('popup.html'), 380, 300);
      const value = await send(page, 'listPlaybooks', {});
      await page.close();
      return value;
    })()) as { items: { id: string; title: string }[] };
    const focus = playbooks.items.find((item) => item.title === first) ?? playbooks.items[0];
    await worker.evaluate(
      async (playbookId) => chrome.storage.session.set({ sidePanelFocus: { playbookId, at: Date.now() } }),
      focus.id,
    );
    const panel = await open(context, url('sidepanel.html'), 400, 760);
    await panel
      .getByText(focus.title)
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(() => undefined);
    await shoot(panel, 'sidepanel');
    await panel.close();

    // A new playbook draft opens the confirm window, exactly as the page button does.
    const requester = await open(context, url('popup.html'), 380, 300);
    const confirmOpened = context.waitForEvent('page', {
      predicate: (p) => p.url().includes('/confirm.html'),
    });
    await send(requester, 'requestWrite', {
      operationId: 'createPlaybook',
      body: {
        title: 'AAPL services margin thesis',
        thesis:
          'Services revenue keeps growing faster than hardware, lifting gross margin; watch App Store regulation and the next two quarterly reports.',
        visibility: 'private',
        tickers: ['AAPL'],
      },
    });
    const confirm = await confirmOpened;
    await confirm.setViewportSize({ width: 520, height: 720 });
    await confirm.getByRole('dialog', { name: say('confirm.dialog', 'Confirm') }).waitFor();
    await shoot(confirm, 'confirm');
    await requester.close();
  } finally {
    await context.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
