import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM_ARGS, findChromium } from '../chromium';

/**
 * Chromium with the extension, driven over plain CDP, not Playwright: Playwright turns
 * prerendering off in every page it attaches to (Preload reports "PrerenderingDisabledByDevTools"),
 * so a prerendered page can only be tested from a browser it does not drive.
 */
export interface RawChromium {
  send: (method: string, params?: object, sessionId?: string) => Promise<Record<string, unknown>>;
  /** Evaluates `expression` (awaited, by value) in the page of `sessionId`. */
  evaluate: (sessionId: string, expression: string) => Promise<unknown>;
  close: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function rawChromium(extensionDir: string): Promise<RawChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'raw-chromium-'));
  const browser: ChildProcess = spawn(
    findChromium(),
    [
      ...CHROMIUM_ARGS,
      '--headless=new',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const portFile = join(profile, 'DevToolsActivePort');
  for (let waited = 0; !existsSync(portFile); waited += 100) {
    if (waited > 15_000) throw new Error('Chromium gave no DevTools port');
    await sleep(100);
  }
  await sleep(100);
  const [port, path] = readFileSync(portFile, 'utf8').trim().split('\n');
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let next = 0;
  const waiting = new Map<number, (answer: { result?: Record<string, unknown>; error?: unknown }) => void>();
  socket.on('message', (data: Buffer) => {
    const answer = JSON.parse(data.toString('utf8')) as { id?: number; result?: Record<string, unknown> };
    if (answer.id !== undefined) waiting.get(answer.id)?.(answer);
  });
  const send: RawChromium['send'] = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (answer) => {
        waiting.delete(id);
        if (answer.error) reject(new Error(`${method}: ${JSON.stringify(answer.error)}`));
        else resolve(answer.result ?? {});
      });
      socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
  const evaluate: RawChromium['evaluate'] = async (sessionId, expression) => {
    const answer = (await send(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    )) as { result?: { value?: unknown }; exceptionDetails?: unknown };
    if (answer.exceptionDetails) throw new Error(JSON.stringify(answer.exceptionDetails));
    return answer.result?.value;
  };
  return {
    send,
    evaluate,
    async close() {
      socket.close();
      const exited = new Promise((resolve) => browser.once('exit', resolve));
      browser.kill();
      await exited;
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
      } catch {
        // A renderer may still be writing into the profile as it exits: the temp folder keeps it.
      }
    },
  };
}
