import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { test as base, chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { startSandbox, type Dialect, type Sandbox } from '../../sandbox/server';
import { isDialect } from '../../sandbox/dialect';
import { CHROMIUM_ARGS, findChromium, welcomeTab } from './chromium';
import { EXTENSION_DIR, FIXTURE_PAGES } from './paths';

export interface PagesServer {
  /** `http://127.0.0.1:<port>/demo/<name>`: inside the content script's sandbox demo matches. */
  url(name: string): string;
  /** How often `name` was asked for as a prerender (`Sec-Purpose: prefetch;prerender`). */
  prerenders(name: string): number;
}

export interface ExtensionHandle {
  id: string;
  url(page: string): string;
  /**
   * Points the extension at the test's sandbox, as the options page would, optionally with the demo
   * key; `serviceUrl` puts another origin (a proxy of the sandbox) in front of the service and its API.
   */
  configure(options?: { key?: string | null; serviceUrl?: string }): Promise<void>;
  /** Opens an extension page and waits for it to render. */
  open(page: string): Promise<Page>;
}

interface WorkerFixtures {
  pages: PagesServer;
}

interface TestFixtures {
  /** Which dialect of the contract the sandbox serves: `test.use({dialect: 'c'})` or SANDBOX_DIALECT=c. */
  dialect: Dialect;
  /** Extra Chromium flags for this test's browser (e.g. --host-resolver-rules). */
  browserArgs: string[];
  /**
   * The browser's UI language (`test.use({ uiLanguage: 'de' })`): what chrome.i18n.getUILanguage
   * returns, so the extension speaks locales/<lang>.yml. Chromium on Linux ignores --lang and reads
   * LANGUAGE; its UI strings for the language come from Debian's chromium-l10n.
   */
  uiLanguage: string | undefined;
  sandbox: Sandbox;
  context: BrowserContext;
  serviceWorker: Worker;
  extension: ExtensionHandle;
}

async function startPagesServer(): Promise<{
  server: Server;
  origin: string;
  prerendered: Map<string, number>;
}> {
  const prerendered = new Map<string, number>();
  const server = createServer((request, response) => {
    const name = basename(new URL(request.url ?? '/', 'http://x').pathname);
    if (String(request.headers['sec-purpose'] ?? '').includes('prerender'))
      prerendered.set(name, (prerendered.get(name) ?? 0) + 1);
    readFile(`${FIXTURE_PAGES}/${name}`).then(
      (body) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(body);
      },
      () => {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('pages server has no port');
  return { server, origin: `http://127.0.0.1:${address.port}`, prerendered };
}

/** The environment that makes Chromium's UI speak `language` (de, ar, pt_BR…) on Linux. */
export function languageEnv(language: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  // LANGUAGE outranks LANG and LC_MESSAGES for the UI language (measured: --lang=de alone gives en-US).
  return { ...env, LANGUAGE: language };
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  dialect: [
    isDialect(process.env.SANDBOX_DIALECT ?? '') ? (process.env.SANDBOX_DIALECT as Dialect) : 'a',
    { option: true },
  ],
  browserArgs: [[], { option: true }],
  uiLanguage: [undefined, { option: true }],

  // A sandbox per test: no test sees another's playbooks, events, plan changes or faults.
  sandbox: async ({ dialect }, use) => {
    const sandbox = await startSandbox({
      dialect,
      port: 0,
      db: ':memory:',
      seed: 25,
      quiet: true,
      demoKey: `pbk_sentinel_${randomBytes(12).toString('hex')}`,
      backtestDelayMs: 500,
    });
    await use(sandbox);
    await sandbox.close();
  },

  pages: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { server, origin, prerendered } = await startPagesServer();
      await use({
        url: (name) => `${origin}/demo/${name}`,
        prerenders: (name) => prerendered.get(name) ?? 0,
      });
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],

  context: async ({ browserArgs, uiLanguage }, use) => {
    const context = await chromium.launchPersistentContext('', {
      executablePath: findChromium(),
      headless: true,
      // Playwright Test gives every context it launches locale en-US (an emulation that extension
      // pages' chrome.i18n.getUILanguage() follows): the page locale must be the UI language too.
      ...(uiLanguage ? { env: languageEnv(uiLanguage), locale: uiLanguage.replace('_', '-') } : {}),
      args: [
        ...CHROMIUM_ARGS,
        `--disable-extensions-except=${EXTENSION_DIR}`,
        `--load-extension=${EXTENSION_DIR}`,
        ...browserArgs,
      ],
    });
    await use(context);
    await context.close();
  },

  serviceWorker: async ({ context }, use) => {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    // A fresh profile is an install, which opens the welcome: every test checks that it did, then
    // closes it as a user would, so no test meets a tab it did not open.
    const welcome = await welcomeTab(context, 20_000);
    if (!welcome) throw new Error('installing the extension opened no welcome tab');
    await welcome.close();
    await use(worker);
  },

  extension: async ({ context, serviceWorker, sandbox }, use) => {
    const id = new URL(serviceWorker.url()).host;
    const url = (page: string) => `chrome-extension://${id}/${page}`;
    const open = async (page: string) => {
      const tab = await context.newPage();
      await tab.goto(url(page));
      return tab;
    };
    const configure = async ({
      key = sandbox.demoKey,
      serviceUrl = sandbox.baseUrl,
    }: { key?: string | null; serviceUrl?: string } = {}) => {
      const apiUrl = `${serviceUrl}${sandbox.apiUrl.slice(sandbox.baseUrl.length)}`;
      const tab = await open('options.html');
      await tab.evaluate(
        async ({ serviceUrl, apiUrl, key }) => {
          const send = async (type: string, payload: unknown) => {
            const answer = await chrome.runtime.sendMessage<
              unknown,
              { ok: boolean; error?: { message: string } }
            >({ type, payload });
            if (!answer.ok) throw new Error(`${type}: ${answer.error?.message}`);
          };
          await send('saveSettings', { serviceUrl, apiUrl });
          if (key) await send('saveApiKey', { key });
          // Save starts the popup's snapshot read in the worker; openPopup joins it, so its
          // requests are over before the test starts counting.
          await send('openPopup', {});
        },
        { serviceUrl, apiUrl, key },
      );
      await tab.close();
    };
    await use({ id, url, open, configure });
  },
});

export const expect = test.expect;
