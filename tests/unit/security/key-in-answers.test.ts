import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecrets, keyWithheld, registerSecret } from '@/lib/log';
import { API_URL, SENTINEL_KEY, clientFor, json, playbook } from '../api/support';
import { SECRET_PART, shortFragmentsIn } from './fragments';

/**
 * What the client hands on to pages besides errors: a deprecation's successor link (from a Link
 * header) and a batch's per-item problems. A service that echoes the key there must not put it,
 * or a 4-character piece of it, in front of a page.
 */
afterEach(() => forgetSecrets());

describe('a deprecation notice whose successor link carries the key', () => {
  it('reaches the overview (a page) without the key', async () => {
    const { client } = clientFor(() =>
      json(playbook('pb_1'), {
        headers: {
          deprecation: '@1735689600',
          sunset: 'Wed, 31 Dec 2031 23:59:59 GMT',
          link: `<${API_URL}/v2/playbooks?key=${SENTINEL_KEY}>; rel="successor-version"`,
        },
      }),
    );
    await client.call('getPlaybook', { path: { id: 'pb_1' } });
    const notices = client.deprecations();
    expect(notices).toHaveLength(1);
    // A link that holds the key is withheld whole: no page gets a link cut around it.
    expect(notices[0]?.successorUrl).toBe(keyWithheld());
    expect(shortFragmentsIn(JSON.stringify(notices))).toEqual([]);
  });
});

describe('a batch answer whose per-item problem echoes the key', () => {
  it('reaches the page (refreshPlaybooks) without the key', async () => {
    const { client } = clientFor(() =>
      json({
        results: [
          {
            id: 'pb_1',
            status: 403,
            error: { title: 'Forbidden', detail: `key ${SENTINEL_KEY} lacks read` },
          },
          { id: 'pb_2', status: 404, error: { title: SENTINEL_KEY.slice(-4), code: SENTINEL_KEY } },
        ],
      }),
    );
    const items = await client.batchGet(['pb_1', 'pb_2']);
    expect(items.map((item) => item.status)).toEqual([403, 404]);
    // The detail that holds the key is withheld whole; the last four of the title are masked.
    expect(items[0]).toMatchObject({ error: { title: 'Forbidden', detail: keyWithheld() } });
    expect(shortFragmentsIn(JSON.stringify(items))).toEqual([]);
  });
});

describe('a refused batch item keeps its own id, whatever characters it shares with the key', () => {
  it('masks the problem, not the id that names the playbook', async () => {
    // An id holding a 4-character window of the key's secret part: masking it would leave the
    // page unable to tell which playbook failed.
    const id = `pb_${SECRET_PART.slice(0, 4)}`;
    const { client } = clientFor(() =>
      json({ results: [{ id, status: 404, error: { title: 'Not found', detail: `no ${SENTINEL_KEY}` } }] }),
    );
    const [item] = await client.batchGet([id]);
    expect(item?.id).toBe(id);
    expect(JSON.stringify(item && 'error' in item ? item.error : {})).not.toContain(SECRET_PART.slice(0, 8));
  });
});

describe('a link the service asks us to open that carries the key', () => {
  it('is not opened: the key would go to the origin it names', async () => {
    const { openableUrl } = await import('@/lib/api/writeOperations');
    registerSecret(SENTINEL_KEY);
    const base = 'https://pay.example.com/checkout';
    expect(openableUrl(`${base}?session=cs_3f9a1b2c4d5e6f70`)).toEqual({
      ok: true,
      url: `${base}?session=cs_3f9a1b2c4d5e6f70`,
    });
    for (const carried of [
      `${base}?k=${SENTINEL_KEY}`,
      `${base}?k=${SECRET_PART.slice(2, 10)}`,
      `${base}?k=${encodeURIComponent(SENTINEL_KEY)}`,
      `${base}#${SECRET_PART}`,
    ])
      expect(openableUrl(carried).ok, carried).toBe(false);
  });
});

describe('an answer that echoes the key in ordinary data', () => {
  const read = async (text: string) => {
    const { readJsonBody } = await import('@/lib/api');
    return readJsonBody(
      new Response(text, { headers: { 'content-type': 'application/json' } }),
      'getPlaybook',
    );
  };

  it('reaches no page: a string carrying 8 characters of it is redacted, a field named by it dropped', async () => {
    registerSecret(SENTINEL_KEY);
    const body = {
      id: 'pb_1',
      title: `Grid ${SENTINEL_KEY}`,
      thesis: `part ${SECRET_PART.slice(3, 11)} only`,
      tickers: ['NEE', SENTINEL_KEY],
      [SECRET_PART]: 'x',
      note: `four ${SECRET_PART.slice(0, 4)} is not a fragment here`,
    };
    const value = (await read(JSON.stringify(body))) as Record<string, unknown>;
    // A string that holds the key is withheld whole, never masked piecewise.
    expect(value).toEqual({
      id: 'pb_1',
      title: keyWithheld(),
      thesis: keyWithheld(),
      tickers: ['NEE', keyWithheld()],
      note: body.note,
    });
  });

  it('also when the service spells the key with JSON escapes', async () => {
    registerSecret(SENTINEL_KEY);
    const escaped = [...SENTINEL_KEY]
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
    expect(escaped).not.toContain(SENTINEL_KEY);
    const value = await read(`{"title":"${escaped}","deep":[[[{"a":"${escaped}"}]]]}`);
    expect(JSON.stringify(value)).not.toContain(SECRET_PART.slice(0, 8));
    expect(value).toEqual({ title: keyWithheld(), deep: [[[{ a: keyWithheld() }]]] });
  });

  it('walks a deeply nested answer without recursion', async () => {
    registerSecret(SENTINEL_KEY);
    const depth = 20_000;
    const text = `${'['.repeat(depth)}"${SENTINEL_KEY}"${']'.repeat(depth)}`;
    let node = await read(text);
    for (let level = 0; level < depth; level++) node = (node as unknown[])[0];
    expect(node).toBe(keyWithheld());
  });
});
