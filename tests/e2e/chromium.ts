import { existsSync } from 'node:fs';
import { chromium, type BrowserContext, type Page } from '@playwright/test';

/** Debian's Chromium first (Playwright cannot download its own here); Playwright's where installed. */
export function findChromium(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  try {
    const bundled = chromium.executablePath();
    if (existsSync(bundled)) return bundled;
  } catch {
    // no bundled browser either
  }
  throw new Error(
    "No Chromium found: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.",
  );
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
];

/** Installing opens the options page's welcome (`openFirstRunSetup` in lib/pages/navigation.ts). */
const isWelcome = (page: Page) => page.url().endsWith('/options.html?welcome');

/**
 * The welcome tab of a fresh profile, once it is there; undefined when none opened within `timeout`
 * (a profile that already had the extension).
 */
export async function welcomeTab(context: BrowserContext, timeout: number): Promise<Page | undefined> {
  const open = context.pages().find(isWelcome);
  if (open) return open;
  return context.waitForEvent('page', { predicate: isWelcome, timeout }).catch(() => undefined);
}
