/** The transport through the client: where the key may go, redirects, streams. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import {
  API_ORIGIN,
  account,
  API_URL,
  keepKeyOutOfLogs,
  clientFor,
  json,
  keyLeaks,
  openApiDocument,
  rejection,
  SENTINEL_KEY,
  SITE_URL,
  status,
} from './support';

keepKeyOutOfLogs();

describe('authentication and origin pinning', () => {
  it('sends the key as a bearer token only on operations that require auth', async () => {
    const { client, requests } = clientFor((request) =>
      new URL(request.url).pathname.endsWith('/status') ? json(status) : json(account),
    );
    await client.call('getStatus');
    await client.call('getAccount');
    expect(requests.map((request) => [new URL(request.url).pathname, request.headers.authorization])).toEqual(
      [
        ['/v1/status', undefined],
        ['/v1/account', `Bearer ${SENTINEL_KEY}`],
      ],
    );
    expect(requests.every((request) => request.headers.cookie === undefined)).toBe(true);
  });

  it('refuses an operation whose server is another origin, before fetching the key or sending anything', async () => {
    let keyAsked = false;
    const { client, requests } = clientFor(() => json(account), {
      openApi: openApiDocument({ serverUrl: 'https://evil.example.test/v1' }),
      getApiKey: () => {
        keyAsked = true;
        return Promise.resolve(SENTINEL_KEY);
      },
    });
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('origin-refused');
    expect(error.message).toContain('https://evil.example.test');
    expect(error.message).toContain(API_ORIGIN);
    expect(requests).toEqual([]);
    expect(keyAsked).toBe(false);
  });

  it.each([
    ['another origin', 'https://evil.example.test/v1/account'],
    ['a different port', 'https://api.example.test:8443/v1/account'],
    ['plain http', 'http://api.example.test/v1/account'],
  ])('refuses a redirect to %s and never sends the key there', async (_name, location) => {
    const { client, requests } = clientFor((request) =>
      new URL(request.url).origin === API_ORIGIN
        ? new Response(null, { status: 302, headers: { location } })
        : json(account),
    );
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('origin-refused');
    expect(error.message).toContain('redirected');
    expect(requests).toHaveLength(1);
    expect(keyLeaks(requests)).toEqual([]);
  });

  it('follows a same-origin redirect, still carrying the key only to the API origin', async () => {
    const { client, requests } = clientFor((request) =>
      new URL(request.url).pathname === '/v1/account'
        ? new Response(null, { status: 307, headers: { location: '/v1/me' } })
        : json(account),
    );
    const result = await client.call('getAccount');
    expect(result.data.email).toBe('ada@example.test');
    expect(requests.map((request) => request.url)).toEqual([`${API_URL}/account`, `${API_URL}/me`]);
    expect(requests.every((request) => request.headers.authorization === `Bearer ${SENTINEL_KEY}`)).toBe(
      true,
    );
  });

  it('refuses an opaque redirect (the browser hides where it goes)', async () => {
    const opaque = {
      type: 'opaqueredirect',
      status: 0,
      headers: new Headers(),
      url: '',
      body: null,
    } as unknown as Response;
    const { client } = clientFor(() => opaque);
    expect(((await rejection(client.call('getAccount'))) as ApiError).kind).toBe('origin-refused');
  });

  it('refuses an answer whose final URL left the origin (a fetch that followed on its own)', async () => {
    const { client } = clientFor(() => {
      const response = json(account);
      Object.defineProperty(response, 'url', { value: 'https://evil.example.test/account' });
      return response;
    });
    expect(((await rejection(client.call('getAccount'))) as ApiError).kind).toBe('origin-refused');
  });

  it('uses redirect: manual and credentials: omit', async () => {
    let seen: Request | undefined;
    const { client } = clientFor((request) => {
      seen = request;
      return json(status);
    });
    await client.call('getStatus');
    expect(seen?.redirect).toBe('manual');
    expect(seen?.credentials).toBe('omit');
  });

  it('without a key, an auth operation is refused with the /apikey link and nothing is sent', async () => {
    const { client, requests } = clientFor(() => json(account), {
      getApiKey: () => Promise.resolve(undefined),
    });
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('unauthorized');
    expect(error.link).toBe(`${SITE_URL}/apikey`);
    expect(requests).toEqual([]);
  });

  it('a caller cannot set Authorization or Idempotency-Key itself', async () => {
    const { client, requests } = clientFor(() => json(status));
    for (const header of ['Authorization', 'cookie', 'Idempotency-Key']) {
      const error = (await rejection(client.call('getStatus', { headers: { [header]: 'x' } }))) as ApiError;
      expect(error.kind).toBe('validation');
    }
    expect(requests).toEqual([]);
  });
});

describe('stream()', () => {
  it('hands back an event stream once its headers are in, with the key, and the attempt timeout no longer applies', async () => {
    const encoder = new TextEncoder();
    let push: (text: string) => void = () => undefined;
    let close: () => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(encoder.encode(text));
        close = () => controller.close();
      },
    });
    const { client, requests } = clientFor(
      () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      {
        timeoutSignal: (ms) => AbortSignal.timeout(ms),
        attemptTimeoutMs: 10,
      },
    );
    const response = await client.stream('streamEvents', { headers: { 'Last-Event-ID': 'evt_9' } });
    expect(requests[0].headers).toMatchObject({
      accept: 'text/event-stream',
      'last-event-id': 'evt_9',
      authorization: `Bearer ${SENTINEL_KEY}`,
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    push('id: evt_10\nevent: playbook.created\ndata: {}\n\n');
    close();
    expect(await response.text()).toContain('evt_10');
  });

  it('a non-stream answer is malformed-response', async () => {
    const { client } = clientFor(() => json({}));
    expect(((await rejection(client.stream('streamEvents'))) as ApiError).kind).toBe('malformed-response');
  });
});
