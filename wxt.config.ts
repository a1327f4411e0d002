import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { noCodeGeneration } from './build/noCodeGeneration';
import { slimMcpSdk } from './build/mcpSdk';
import { zodWithoutJsonSchema } from './build/zodWithoutJsonSchema';
import { minifyWorker } from './build/minifyWorker';
import { moduleSizes } from './bench/moduleSizes';
import { offerWords } from './build/offerWords';
// `npm run zip` / `build:store`: no loopback host; lib/pages/offer/sitePatterns.ts drops the demo pages too.
import { STORE_MODE } from './lib/contract/buildMode';
import { contentScriptMatches } from './lib/pages/offer/sitePatterns';
import { ARTICLE_CAPTURE_FILE, OFFER_SCRIPT, PAGE_TICKERS_FILE } from './lib/finance/captureGlobal';

/** A static page with one element and no script, opened like the popup: what "as fast as a blank page" means. */
const BLANK_PAGE = 'blank.html';
const BLANK_PAGE_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blank</title></head><body><p>Blank</p></body></html>\n';

/** The popup's floor: its snapshot read and one bare row (entrypoints/popup-floor); never in a store build. */
const POPUP_FLOOR = 'popup-floor';

/** The sandbox runs on loopback; real services are reached only after the user grants them. */
const SANDBOX_HOSTS = ['http://127.0.0.1/*', 'http://localhost/*'];

/**
 * What the extension may ask to reach at run time. Development builds may also ask for a plain-http
 * host (a service on the local network); a store build only ever reaches https services.
 */
const optionalHosts = (mode: string) =>
  mode === STORE_MODE ? ['https://*/*'] : ['https://*/*', 'http://*/*'];

/**
 * The store build states its policy for extension pages rather than rely on each browser's
 * default: only its own scripts, no plugins, no <base> rewrites, no form posts.
 */
const EXTENSION_PAGES_CSP = "script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** The offer's lazily imported files, web-accessible (see `web_accessible_resources` below). */
function LAZY_OFFER_FILES(browser: string) {
  const resources = [PAGE_TICKERS_FILE, ARTICLE_CAPTURE_FILE].map((file) => file.replace(/^\//, ''));
  return browser === 'firefox'
    ? (resources as never)
    : [{ resources, matches: ['http://*/*', 'https://*/*'], use_dynamic_url: true }];
}

export default defineConfig({
  // @wxt-dev/i18n: locales/*.yml become _locales/*/messages.json and typed keys (lib/i18n).
  modules: ['@wxt-dev/webextension-polyfill', '@wxt-dev/i18n/module'],
  // Explicit imports everywhere: a reader sees where every name comes from.
  imports: false,
  // Parallel work (several e2e runs at once) builds into separate folders: WXT_OUT_DIR=.output-x.
  outDir: process.env.WXT_OUT_DIR ?? '.output',
  // Firefox reviewers get the sources; test output and local state are not sources.
  zip: {
    excludeSources: [
      'test-results*/**',
      'playwright-report/**',
      '.sandbox/**',
      '.output-*/**',
      'bench/results.json',
    ],
  },
  // moduleSizes records chunk contents only when the bench asks (BENCH_MODULE_SIZES).
  // zodWithoutJsonSchema and slimMcpSdk leave unused library code out of the bundles (build/).
  // offerWords bundles the offer's first words into the content script (no i18n call on a page).
  // minifyWorker runs terser over the service worker's one file after esbuild (build/minifyWorker.ts).
  vite: () => ({
    // Both browsers' floors (Chrome's side panel: 114; Firefox 140) run ES2022 as written, so
    // esbuild leaves class fields, `?.` and `??` alone instead of lowering them (−3 KB gzip in the worker).
    build: { target: 'es2022' },
    plugins: [
      preact(),
      noCodeGeneration(),
      zodWithoutJsonSchema(),
      slimMcpSdk(),
      moduleSizes(),
      offerWords(),
      minifyWorker(),
    ],
  }),
  hooks: {
    // The bench's popup floor is left out of store builds, like blank.html below.
    'entrypoints:resolved': (wxt, entrypoints) => {
      const floor = entrypoints.findIndex((entrypoint) => entrypoint.name === POPUP_FLOOR);
      if (wxt.config.mode === STORE_MODE && floor >= 0) entrypoints.splice(floor, 1);
    },
    // The popup is opened most: built alone, it loads one script instead of the chunks it would
    // share. So is its floor, to be compared with it.
    'entrypoints:grouped': (_wxt, groups) => {
      const alone = (entrypoint: { type: string; name: string }) =>
        entrypoint.type === 'popup' || entrypoint.name === POPUP_FLOOR;
      for (const group of [...groups]) {
        if (!Array.isArray(group)) continue;
        for (let index = group.length - 1; index >= 0 && group.length > 1; index--)
          if (alone(group[index])) groups.push(group.splice(index, 1));
      }
    },
    // The bench's floor (bench/browser.ts): one element, no script, same origin; never in a store build.
    'build:publicAssets': (wxt, files) => {
      if (wxt.config.mode !== STORE_MODE) files.push({ relativeDest: BLANK_PAGE, contents: BLANK_PAGE_HTML });
    },
  },
  manifest: ({ browser, mode }) => ({
    // Every visible string, the manifest's included, comes from locales/ (README, Languages).
    default_locale: 'en',
    name: '__MSG_manifest_name__',
    description: '__MSG_manifest_description__',
    permissions: [
      'storage',
      'scripting',
      // A right-click reads the clicked page's article (lib/background/contextMenus.ts), on that click only.
      'activeTab',
      'alarms',
      'contextMenus',
      'notifications',
      ...(browser === 'chrome' ? ['sidePanel'] : []),
    ],
    // Development and test builds (npm run build, npm start, the e2e suite) reach the sandbox at once.
    ...(mode === STORE_MODE ? {} : { host_permissions: SANDBOX_HOSTS }),
    // The offer (entrypoints/finance.ts) is an unlisted script declared here, not a WXT content
    // script: WXT's content-script context posts the extension's id to the page (issue 23). The
    // build's mode decides whether the sandbox's demo pages are included (never in store builds).
    content_scripts: [
      {
        matches: contentScriptMatches(mode),
        js: [OFFER_SCRIPT.replace(/^\//, '')],
        run_at: 'document_idle',
        all_frames: false,
      },
    ],
    // What the offer imports when the browser is idle or the user clicks (lib/pages/offer/lazy.ts).
    // On Chromium, `use_dynamic_url`: reachable only at an address made anew every session, so no
    // page can probe for the extension at its fixed id (docs/decisions.md). Firefox's addresses
    // hold a random id per installation already. Any http(s) page: sites the user adds run it too.
    web_accessible_resources: LAZY_OFFER_FILES(browser),
    optional_host_permissions: optionalHosts(mode),
    // COMPAT(firefox-mv2): WXT drops optional_host_permissions for MV2; Firefox reads origins here.
    ...(browser === 'firefox' ? { optional_permissions: optionalHosts(mode) } : {}),
    // MV2 (Firefox) takes the policy as a string, MV3 per kind of page.
    ...(mode === STORE_MODE
      ? {
          content_security_policy:
            browser === 'firefox' ? EXTENSION_PAGES_CSP : { extension_pages: EXTENSION_PAGES_CSP },
        }
      : {}),
    // Desktop Firefox only: Android has no windows.create (the confirm window), sidebar, context
    // menus or commands, and nothing here proves the extension there (README, Browser support).
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'playbook-companion@investing-agent.example',
              strict_min_version: '140.0',
              // Page excerpts go to the user's own service, and only when they confirm a playbook.
              data_collection_permissions: { required: ['websiteContent'] },
            },
          },
        }
      : {}),
    commands:
      browser === 'firefox'
        ? {
            _execute_sidebar_action: {
              suggested_key: { default: 'Alt+Shift+P' },
              description: '__MSG_manifest_openSidePanel__',
            },
          }
        : {
            'open-side-panel': {
              suggested_key: { default: 'Alt+Shift+P' },
              description: '__MSG_manifest_openSidePanel__',
            },
          },
  }),
});
