import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { test as base, expect } from '../fixtures';

/** What a page gets back from the service worker: the dispatcher's envelope. */
export type Answer =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };

export interface Probe {
  /** Sends one message from an extension page (the options page) and records the answer. */
  send(type: string, payload?: unknown): Promise<Answer>;
  /** Sends and expects ok; returns the value. */
  value<T = unknown>(type: string, payload?: unknown): Promise<T>;
  /** Every answer any `send` received, serialised, for the sentinel scan. */
  answers: string[];
  /** Every console line of the service worker (every incarnation) and of every page. */
  logs: string[];
  /** The extension page the messages come from. */
  page(): Promise<Page>;
  /** Stops the service worker the way Chrome does when idle (CDP ServiceWorker.stopAllWorkers). */
  stopWorker(): Promise<void>;
  /** The current service worker (after a stop, the next message starts a new one). */
  worker(): Promise<Worker>;
}

/**
 * Worker logs: Playwright 1.65 emits `console` on the service worker's Worker object, and
 * the context's `console` event repeats them; we listen on each worker (old and restarted) and
 * on every page, so a key printed anywhere would be seen.
 */
function collectLogs(context: BrowserContext, logs: string[]): void {
  const watchWorker = (worker: Worker) => worker.on('console', (line) => logs.push(line.text()));
  context.serviceWorkers().forEach(watchWorker);
  context.on('serviceworker', watchWorker);
  const watchPage = (page: Page) => page.on('console', (line) => logs.push(line.text()));
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
}

export const test = base.extend<{ probe: Probe }>({
  probe: async ({ context, extension }, use) => {
    const logs: string[] = [];
    const answers: string[] = [];
    collectLogs(context, logs);
    let sender: Page | undefined;
    const page = async () => {
      if (!sender || sender.isClosed()) sender = await extension.open('options.html');
      return sender;
    };
    const send = async (type: string, payload: unknown = {}) => {
      const answer = await (
        await page()
      ).evaluate(
        async ({ type, payload }) => chrome.runtime.sendMessage<unknown, Answer>({ type, payload }),
        { type, payload },
      );
      answers.push(JSON.stringify(answer));
      return answer;
    };
    const value = async <T>(type: string, payload: unknown = {}) => {
      const answer = await send(type, payload);
      if (!answer.ok) throw new Error(`${type} failed: ${answer.error.code} ${answer.error.message}`);
      return answer.value as T;
    };
    const stopWorker = async () => {
      const blank = await extension.open('options.html');
      const cdp = await context.newCDPSession(blank);
      const stopped = new Promise<void>((resolve) => {
        cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
          if (event.versions.some((version) => version.runningStatus === 'stopped')) resolve();
        });
      });
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await stopped;
      await blank.close();
    };
    const worker = async () => {
      const running = context.serviceWorkers().at(-1);
      if (running) return running;
      const woken = context.waitForEvent('serviceworker');
      await send('getState');
      return woken;
    };
    await use({ send, value, answers, logs, page, stopWorker, worker });
  },
});

export { expect };

export interface RecordedCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface OtherOrigin {
  origin: string;
  calls: RecordedCall[];
  /** Stops listening: connections are refused, as when a service is offline. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export type Responder = (call: RecordedCall) => Promise<{
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}>;

/**
 * A second loopback origin that records every request it gets. By default it answers 404; a
 * responder can serve pages or forward to the sandbox (a recording proxy).
 */
export async function startOtherOrigin(responder?: Responder): Promise<OtherOrigin> {
  const calls: RecordedCall[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call: RecordedCall = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      calls.push(call);
      const answer = responder
        ? responder(call)
        : Promise.resolve({ status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' });
      answer.then(
        ({ status, headers, body }) => {
          response.writeHead(status, { 'access-control-allow-origin': '*', ...headers });
          response.end(body);
        },
        () => {
          response.writeHead(502);
          response.end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const port = address.port;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    stop,
    start: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: stop,
  };
}

/** The sandbox behind another origin: its own URLs rewritten to the proxy's (SKILL.md bytes kept, digests hold). */
export function proxyTo(target: string, origin: () => string): Responder {
  return (call) =>
    forward(target, call, (path, text) =>
      path.endsWith('SKILL.md') ? text : text.split(target).join(origin()),
    );
}

export interface GatedService extends OtherOrigin {
  /**
   * From now on, the requests `match` picks are recorded and then held, unanswered and not yet
   * forwarded, until `release()`: what the extension does meanwhile cannot race their answer.
   */
  hold(match: (call: RecordedCall) => boolean): void;
  /** Resolves once the first request held since `hold()` has arrived. */
  held(): Promise<RecordedCall>;
  /** Forwards the held requests (and stops holding); resolves once the sandbox has answered them. */
  release(): Promise<void>;
}

/**
 * The sandbox behind a recording proxy (its URLs rewritten to the proxy's, see `proxyTo`) that can
 * hold requests at a gate: a test waits for an event ("the write has left") instead of racing a
 * latency it set against how fast the machine runs the next step.
 */
export async function startGatedService(target: string): Promise<GatedService> {
  let origin = '';
  const forwardAll = proxyTo(target, () => origin);
  let match: ((call: RecordedCall) => boolean) | undefined;
  let open = Promise.resolve();
  let opened = () => {};
  let arrived: (call: RecordedCall) => void = () => {};
  let first: Promise<RecordedCall> = new Promise(() => {});
  const answered: Promise<unknown>[] = [];
  const service = await startOtherOrigin((call) => {
    if (!match?.(call)) return forwardAll(call);
    arrived(call);
    const answer = open.then(() => forwardAll(call));
    answered.push(answer.catch(() => undefined));
    return answer;
  });
  origin = service.origin;
  return {
    ...service,
    hold(next) {
      match = next;
      open = new Promise((resolve) => (opened = resolve));
      first = new Promise((resolve) => (arrived = resolve));
    },
    held: () => first,
    async release() {
      match = undefined;
      opened();
      await Promise.all(answered.splice(0));
    },
  };
}

/** Forwards a recorded call to `target` (the sandbox) and returns its answer, optionally rewritten. */
export async function forward(
  target: string,
  call: RecordedCall,
  rewrite?: (path: string, text: string) => string,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer | string }> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers))
    if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
      headers[name] = value;
  const upstream = await fetch(`${target}${call.url}`, {
    method: call.method,
    headers,
    body: call.method === 'GET' || call.method === 'HEAD' ? undefined : call.body,
  });
  const out: Record<string, string> = {};
  upstream.headers.forEach((value, name) => {
    if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
      out[name] = value;
  });
  const bytes = Buffer.from(await upstream.arrayBuffer());
  const path = new URL(call.url, target).pathname;
  if (rewrite && upstream.status !== 304) {
    const text = bytes.toString('utf8');
    const rewritten = rewrite(path, text);
    if (rewritten !== text) {
      delete out.etag;
      return { status: upstream.status, headers: out, body: rewritten };
    }
  }
  return { status: upstream.status, headers: out, body: bytes };
}
