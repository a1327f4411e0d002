/**
 * Real Firefox (Debian's firefox-esr) driving the unpacked Firefox build over WebDriver BiDi with
 * puppeteer-core, against a real sandbox on a free port.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startSandbox, type Dialect, type Sandbox } from '../../sandbox/server';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The Firefox build `npm run build:firefox` made; WXT_OUT_DIR moves it for parallel work. */
export const FIREFOX_BUILD = `${ROOT}${process.env.WXT_OUT_DIR ?? '.output'}/firefox-mv2`;
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const GECKO_ID = (
  JSON.parse(readFileSync(`${FIREFOX_BUILD}/manifest.json`, 'utf8')) as {
    browser_specific_settings: { gecko: { id: string } };
  }
).browser_specific_settings.gecko.id;
/** Firefox's element ids for the extension's own menu items and sidebar derive from its gecko id. */
const WIDGET_ID = GECKO_ID.replace(/[^\w-]/g, '_');
export const SIDEBAR_ID = `${WIDGET_ID}-sidebar-action`;

export type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export interface Firefox {
  browser: Browser;
  /** `moz-extension://<uuid>/<page>`. */
  url(page: string): string;
  /** Opens an extension page in a new tab and waits for `selector`, not for the load event. */
  open(page: string, selector?: string): Promise<Page>;
  /** The open tab or window whose document is at a URL containing `part` (waits for it). */
  pageAt(part: string, timeoutMs?: number): Promise<Page>;
  /** Sends one message to the background from an extension page, as the UI does. */
  send(type: string, payload?: unknown): Promise<Answer>;
  /** Runs `fn` in an extension page, where the `browser` namespace is. */
  inExtension<T, A>(fn: (arg: A) => Promise<T>, arg: A): Promise<T>;
  /** Closes every tab a test opened (the first tab and the message sender stay). */
  closeTabs(): Promise<void>;
  /** Evaluates in the browser's own window (chrome scope): native menus, the sidebar. */
  chrome<T>(expression: string): Promise<T>;
  close(): Promise<void>;
}

interface BidiConnection {
  send(method: string, params: unknown): Promise<{ result: Record<string, unknown> }>;
}

export interface LaunchOptions {
  /**
   * The UI language (`intl.locale.requested`): what browser.i18n.getUILanguage() returns, so the
   * extension speaks locales/<lang>.yml. Needs Debian's language pack (firefox-esr-l10n-<lang>),
   * which Firefox finds among its own extensions.
   */
  locale?: string;
}

export async function launchFirefox({ locale }: LaunchOptions = {}): Promise<Firefox> {
  if (!existsSync(`${FIREFOX_BUILD}/manifest.json`)) throw new Error(`no Firefox build at ${FIREFOX_BUILD}`);
  const uuid = randomUUID();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    // Firefox 153 refuses WebDriver navigation to moz-extension:// pages (and chrome scope) without it.
    args: ['--remote-allow-system-access'],
    // A pinned UUID gives the extension's pages known URLs before it is installed.
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      ...(locale ? { 'intl.locale.requested': locale } : {}),
    },
  });
  await browser.installExtension(FIREFOX_BUILD);
  const connection = (browser as unknown as { connection: BidiConnection }).connection;
  const url = (page: string) => `moz-extension://${uuid}/${page}`;

  const open = async (page: string, selector = 'main, form, [role="dialog"]') => {
    const tab = await browser.newPage();
    // An extension page may never report its load event over BiDi: wait for its content instead.
    await tab.goto(url(page), { waitUntil: [], timeout: 1_000 }).catch(() => undefined);
    await tab.waitForSelector(selector, { timeout: 15_000 });
    return tab;
  };

  // Puppeteer keeps `about:blank` as the URL of windows the extension opens: ask each document.
  const pageAt = async (part: string, timeoutMs = 15_000) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      for (const page of await browser.pages()) {
        const href = await page.evaluate(() => location.href).catch(() => '');
        if (href.includes(part)) return page;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`no page at …${part} after ${timeoutMs} ms`);
  };

  let messenger: Page | undefined;
  const inExtension = async <T, A>(fn: (arg: A) => Promise<T>, arg: A): Promise<T> => {
    // An options tab of its own, reopened when a test closed it.
    if (!messenger || messenger.isClosed()) messenger = await open('options.html', 'form');
    return (await messenger.evaluate(fn as (arg: unknown) => Promise<unknown>, arg)) as T;
  };
  const send = (type: string, payload: unknown = {}) =>
    inExtension(
      (message) =>
        (
          globalThis as unknown as { browser: { runtime: { sendMessage(m: unknown): Promise<Answer> } } }
        ).browser.runtime.sendMessage(message),
      { type, payload },
    );

  let chromeContext: string | undefined;
  const chrome = async <T>(expression: string): Promise<T> => {
    if (!chromeContext) {
      const tree = await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome', maxDepth: 0 });
      chromeContext = (tree.result.contexts as Array<{ context: string }>)[0]?.context;
    }
    const answer = await connection.send('script.evaluate', {
      expression,
      target: { context: chromeContext },
      awaitPromise: true,
      serializationOptions: { maxObjectDepth: 4 },
    });
    const result = answer.result as {
      type: string;
      result?: { value?: unknown };
      exceptionDetails?: { text: string };
    };
    if (result.type === 'exception') throw new Error(`chrome scope: ${result.exceptionDetails?.text}`);
    return fromBidi(result.result) as T;
  };

  const closeTabs = async () => {
    const pages = await browser.pages();
    for (const page of pages.slice(1)) if (page !== messenger) await page.close().catch(() => undefined);
  };

  // Installing opened the welcome (options.html?welcome): every run checks it did, then closes it.
  await (await pageAt('options.html?welcome', 20_000)).close();

  return { browser, url, open, pageAt, send, inExtension, closeTabs, chrome, close: () => browser.close() };
}

/** BiDi's serialized values (strings, numbers, booleans, arrays, objects) back to plain JSON. */
function fromBidi(value: unknown): unknown {
  const remote = value as { type?: string; value?: unknown } | undefined;
  if (!remote || remote.value === undefined) return remote?.type === 'null' ? null : undefined;
  if (remote.type === 'array') return (remote.value as unknown[]).map(fromBidi);
  if (remote.type === 'object')
    return Object.fromEntries(
      (remote.value as Array<[string, unknown]>).map(([key, item]) => [key, fromBidi(item)]),
    );
  return remote.value;
}

export interface ShownAlert {
  /** The notification id the extension gave (nsIAlertNotification's name). */
  id: string;
  title: string;
  text: string;
}

export interface SystemAlerts {
  /** Every alert Firefox asked the system to show since the fake was installed, oldest first. */
  shown(): Promise<ShownAlert[]>;
  /** A person clicking the alert: Firefox's own click callback, which the notifications API turns into onClicked. */
  click(id: string): Promise<void>;
}

/**
 * The system's notification centre, replaced in the browser's own scope (as Firefox's tests do
 * with MockRegistrar). Headless Firefox has no alert service that shows anything: the
 * notifications API closes each alert at once (onClosed, and `getAll()` is empty), so nothing can
 * be seen or clicked. This fake keeps each alert until it is clicked or closed and answers with
 * the callbacks a real one sends ("alertshow", "alertclickcallback"); everything on the
 * extension's side (notifications.create, the API's map, onClicked) is Firefox's own. Install it
 * before the extension shows anything: the API looks the service up on every alert.
 */
export async function fakeSystemAlerts(firefox: Firefox): Promise<SystemAlerts> {
  await firefox.chrome(`(() => {
    const shown = [];
    const listeners = new Map();
    const service = {
      QueryInterface: ChromeUtils.generateQI(['nsIAlertsService']),
      showAlert(alert, listener) {
        shown.push({ id: alert.name, title: alert.title, text: alert.text });
        listeners.set(alert.name, listener);
        listener?.observe(null, 'alertshow', alert.cookie);
      },
      closeAlert(name) {
        const listener = listeners.get(name);
        listeners.delete(name);
        listener?.observe(null, 'alertfinished', '');
      },
    };
    const factory = {
      QueryInterface: ChromeUtils.generateQI(['nsIFactory']),
      createInstance: (iid) => service.QueryInterface(iid),
    };
    Components.manager
      .QueryInterface(Ci.nsIComponentRegistrar)
      .registerFactory(Services.uuid.generateUUID(), 'test alerts', '@mozilla.org/alerts-service;1', factory);
    globalThis.__testAlerts = {
      shown,
      click(name) {
        const listener = listeners.get(name);
        if (!listener) return false;
        listener.observe(null, 'alertclickcallback', '');
        return true;
      },
    };
    return true;
  })()`);
  return {
    shown: () => firefox.chrome<ShownAlert[]>('globalThis.__testAlerts.shown'),
    click: async (id) => {
      if (!(await firefox.chrome<boolean>(`globalThis.__testAlerts.click(${JSON.stringify(id)})`)))
        throw new Error(`no alert ${id} to click`);
    },
  };
}

/** A sandbox of its own per test: no test sees another's playbooks, events or faults. */
export function sandboxForTest(options: { dialect?: Dialect } = {}): Promise<Sandbox> {
  return startSandbox({
    ...options,
    port: 0,
    db: ':memory:',
    seed: 25,
    quiet: true,
    demoKey: `pbk_sentinel_${randomBytes(12).toString('hex')}`,
    backtestDelayMs: 300,
  });
}

/** One Firefox for a test file and the sandbox of the test under way (see firefoxPerFile). */
export interface FirefoxSession {
  readonly firefox: Firefox;
  /** Starts the test's own sandbox (sandboxForTest), closed when the test ends. */
  newSandbox(options?: { dialect?: Dialect }): Promise<Sandbox>;
}

/**
 * The set-up the page suites share: one Firefox for the file (launching one per test would
 * dominate the suite's time), its tabs closed and the test's sandbox stopped after each test.
 */
export function firefoxPerFile(options: LaunchOptions = {}): FirefoxSession {
  let firefox: Firefox | undefined;
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    firefox = await launchFirefox(options);
  });
  afterAll(async () => {
    await firefox?.close();
  });
  afterEach(async () => {
    await firefox?.closeTabs();
    await sandbox?.close();
    sandbox = undefined;
  });
  return {
    get firefox() {
      if (!firefox) throw new Error('Firefox is not running: use the session inside a test');
      return firefox;
    },
    async newSandbox(sandboxOptions) {
      sandbox = await sandboxForTest(sandboxOptions);
      return sandbox;
    },
  };
}

/** Points the extension at this sandbox with its demo key, as the options page does. */
export async function configure(firefox: Firefox, sandbox: Sandbox): Promise<void> {
  for (const [type, payload] of [
    ['saveSettings', { serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl }],
    ['saveApiKey', { key: sandbox.demoKey }],
  ] as const) {
    const answer = await firefox.send(type, payload);
    if (!answer.ok) throw new Error(`${type}: ${answer.error.message}`);
  }
}

export async function admin(sandbox: Sandbox, route: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.baseUrl}/__admin/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin ${route}: ${response.status}`);
  return response.json();
}

/** Waits until `read` returns something truthy; returns it. */
export async function until<T>(read: () => Promise<T> | T, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await read();
      if (value) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`timed out waiting for ${what} (last: ${String(last)})`);
}

/** Types into the field labelled `label` as a user does: focus, select what is there, type. */
export async function typeInto(page: Page, label: string, text: string): Promise<void> {
  const found = await page.evaluateHandle((label) => {
    const named = (element: HTMLLabelElement) =>
      element.textContent?.trim() === label || element.firstChild?.textContent?.trim() === label;
    return [...document.querySelectorAll('label')].find(named)?.control ?? null;
  }, label);
  const field = found.asElement() as ElementHandle<HTMLInputElement> | null;
  if (!field) throw new Error(`no field labelled "${label}"`);
  await field.click();
  await field.evaluate((input) => input.select());
  await page.keyboard.type(text);
}

/** The visible text of a page, for assertions on what the user reads. */
export function textOf(page: Page, selector = 'body'): Promise<string> {
  return page.$eval(selector, (element) => (element as HTMLElement).innerText);
}
