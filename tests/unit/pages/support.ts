import { afterEach, expect } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  createHandlerRegistry,
  HandledError,
  ownIdentity,
  type Envelope,
  type MessageName,
  type ParsedRequestOf,
  type ResponseOf,
  type WireError,
} from '@/lib/messaging';

/** Per-test answers for the messages a page sends; each gets the request as the worker parsed it. */
export type StubHandlers = {
  [N in MessageName]?: (request: ParsedRequestOf<N>) => ResponseOf<N> | Promise<ResponseOf<N>>;
};

export interface StubWorker {
  /** What the page sent and the worker's schemas accepted, in order. */
  received: { type: MessageName; payload: unknown }[];
  /** What the worker's registry refused before any handler ran (bad payload, wrong sender, no handler). */
  refused: { type: unknown; error: WireError }[];
}

/** A service-worker failure as the page receives it (an API error's code, message and details). */
export function workerFailure(wire: WireError): HandledError {
  return new HandledError(wire);
}

const started: StubWorker[] = [];

// A page that sends what the worker would refuse is a bug even when the page copes with the error.
afterEach(() => {
  const refused = started.flatMap((worker) => worker.refused);
  started.length = 0;
  expect(refused, 'messages the worker would refuse').toEqual([]);
});

/**
 * Answers the page's messages through the real registry of lib/messaging: the message map's
 * schemas and sender rules run in front of the stub handlers, and the page is an extension page.
 */
export function serveMessages(
  handlers: StubHandlers,
  page: '/popup.html' | '/options.html' | '/confirm.html' | '/sidepanel.html' = '/popup.html',
): StubWorker {
  const identity = ownIdentity();
  const registry = createHandlerRegistry(identity);
  const worker: StubWorker = { received: [], refused: [] };
  for (const name of Object.keys(handlers) as MessageName[]) {
    const handler = handlers[name] as (request: unknown) => unknown;
    registry.register(name, (request) => handler(request) as never);
  }
  const sender = { id: identity.extensionId, url: fakeBrowser.runtime.getURL(page) };
  fakeBrowser.runtime.onMessage.addListener(((message: { type: MessageName; payload: unknown }) =>
    registry.dispatch(message, sender).then((envelope: Envelope<unknown>) => {
      if (envelope.ok || !isRefusal(envelope.error)) worker.received.push(message);
      else worker.refused.push({ type: message.type, error: envelope.error });
      return envelope;
    })) as never);
  started.push(worker);
  return worker;
}

const REFUSALS = new Set(['unknown-message', 'malformed-message', 'sender-not-allowed', 'no-handler']);
function isRefusal(error: WireError): boolean {
  return REFUSALS.has(error.code);
}
