/**
 * `npm start`: build the extension, start the sandbox, and open Chromium with the extension loaded
 * and pointed at the sandbox. Without a display it says so and prints how to load the build by hand.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, welcomeTab } from '../tests/e2e/chromium';

const PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const STATE_DIR = '.sandbox';
const EXTENSION_DIR = '.output/chrome-mv3';

function demoKey(): string {
  // One key per checkout, so the sandbox's store and the browser profile keep agreeing across restarts.
  const file = `${STATE_DIR}/demo-key`;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = `pbk_demo_${randomBytes(16).toString('hex')}`;
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

async function startSandbox(key: string): Promise<{ baseUrl: string; stop: () => void }> {
  const child = spawn(
    'npx',
    ['tsx', 'sandbox/main.ts', '--port', String(PORT), '--db', `${STATE_DIR}/sandbox.db`, '--demo-key', key],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the sandbox exited early (code ${code})`)));
    lines.on('line', (line) => {
      if (!line.startsWith('demo API key:')) console.log(`sandbox | ${line}`);
      const match = /^listening on (\S+)/.exec(line);
      if (match) resolve(match[1]);
    });
  });
  return { baseUrl, stop: () => child.kill('SIGINT') };
}

function hasDisplay(): boolean {
  return (
    process.platform === 'darwin' ||
    process.platform === 'win32' ||
    Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
  );
}

async function openBrowser(baseUrl: string, key: string): Promise<void> {
  const context = await chromium.launchPersistentContext(`${STATE_DIR}/chromium-profile`, {
    executablePath: findChromium(),
    headless: false,
    viewport: null,
    args: [
      ...CHROMIUM_ARGS.filter((arg) => arg !== '--disable-gpu'),
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;
  // Fill the options page the way a user would: service URL, API URL, and the demo key. The first
  // start installs the extension, which opens the options page with its welcome: fill that one.
  const options = (await welcomeTab(context, 5_000)) ?? (await context.newPage());
  await options.goto(`chrome-extension://${id}/options.html`);
  await options.getByRole('textbox', { name: 'Service URL' }).fill(baseUrl);
  await options.getByRole('textbox', { name: 'API URL' }).fill(`${baseUrl}/api/v1`);
  await options.getByLabel('API key').fill(key);
  await options.getByRole('button', { name: 'Save' }).click();
  const demo = await context.newPage();
  await demo.goto(`${baseUrl}/demo/quote/AAPL`).catch(() => undefined);
  console.log(`Chromium is open with the extension (id ${id}). Close the window or press Ctrl+C to stop.`);
  await new Promise<void>((resolve) => context.once('close', () => resolve()));
}

async function main(): Promise<void> {
  mkdirSync(STATE_DIR, { recursive: true });
  console.log('Building the extension…');
  execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit' });
  const key = demoKey();
  const sandbox = await startSandbox(key);
  const stop = () => {
    sandbox.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  if (hasDisplay()) {
    await openBrowser(sandbox.baseUrl, key);
    stop();
    return;
  }
  console.log(`
No display was found, so no browser window can open here. The sandbox is running at ${sandbox.baseUrl}.
To use the extension from a machine with a display:
  1. Open chrome://extensions, turn on Developer mode, choose "Load unpacked" and pick
     ${process.cwd()}/${EXTENSION_DIR}
  2. In the extension's options set Service URL ${sandbox.baseUrl}, API URL ${sandbox.baseUrl}/api/v1
     and the demo API key stored in ${STATE_DIR}/demo-key.
Press Ctrl+C to stop the sandbox.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
