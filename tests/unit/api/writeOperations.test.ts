import { describe, expect, it } from 'vitest';
import {
  ApiError,
  assertUnambiguousDocument,
  openableUrl,
  parseOpenApiDocument,
  pathParameterNames,
  routeShape,
  WRITE_OPERATIONS,
  WRITES,
} from '@/lib/api';
import { clientFor, json, rejection, writesDocument } from './support';

function refusal(doc: unknown): string {
  try {
    assertUnambiguousDocument(parseOpenApiDocument(doc), WRITE_OPERATIONS);
  } catch (error) {
    return (error as ApiError).message;
  }
  return 'accepted';
}

describe('documents that are ambiguous about what is sent are refused', () => {
  it('accepts the contract-shaped document', () => {
    expect(refusal(writesDocument())).toBe('accepted');
  });

  it('refuses two operations on one method and route, whatever their parameters are called', () => {
    const doc = writesDocument() as { paths: Record<string, unknown> };
    doc.paths['/playbooks/{bookId}/pause'] = { post: { operationId: 'activatePlaybook', responses: {} } };
    delete doc.paths['/playbooks/{id}/activate'];
    expect(refusal(doc)).toMatch(
      /refused: (pausePlaybook and activatePlaybook|activatePlaybook and pausePlaybook) are both POST \/playbooks\/\{\}\/pause/,
    );
  });

  it.each(['get', 'head'])('refuses a write declared as %s', (method) => {
    const doc = writesDocument();
    doc.paths['/playbooks/{id}/pause'] = { [method]: { operationId: 'pausePlaybook', responses: {} } };
    expect(refusal(doc)).toMatch(
      new RegExp(`the write pausePlaybook is declared as ${method.toUpperCase()} /playbooks/\\{id\\}/pause`),
    );
  });

  it('refuses one operationId on two routes', () => {
    const doc = writesDocument();
    doc.paths['/playbooks/{id}/stop'] = { post: { operationId: 'pausePlaybook', responses: {} } };
    expect(refusal(doc)).toMatch(/the operationId pausePlaybook names two operations/);
  });

  it('a client on a refused document refuses reads too, saying why', async () => {
    const doc = writesDocument();
    doc.paths['/playbooks/{id}/pause'] = { get: { operationId: 'pausePlaybook', responses: {} } };
    const { client, requests } = clientFor(() => json({}), { openApi: doc });
    const error = (await rejection(client.call('getStatus'))) as ApiError;
    expect(error.message).toMatch(/OpenAPI document is refused.*never sent as GET or HEAD/);
    expect(() => client.resolveWrite('pausePlaybook', 'pb_1')).toThrow(/refused/);
    expect(requests).toEqual([]);
  });

  it.each([
    ['/playbooks/{id}', '/playbooks/{}'],
    ['/playbooks/{bookId}/live:stop', '/playbooks/{}/live:stop'],
    ['/a/{x}/b/{y}', '/a/{}/b/{}'],
  ])('route shape of %s is %s', (template, shape) => expect(routeShape(template)).toBe(shape));

  it.each([
    ['/playbooks', []],
    ['/books/{bookId}', ['bookId']],
    ['/a/{x}/b/{y}/{x}', ['x', 'y']],
  ])('path parameters of %s', (template, names) => expect(pathParameterNames(template)).toEqual(names));
});

describe('pages the service names are opened only over https (http on loopback)', () => {
  it.each([
    ['https://checkout.example.com/s/1', true],
    ['http://127.0.0.1:8787/checkout/1', true],
    ['http://127.9.8.7/x', true],
    ['http://localhost:3000/x', true],
    ['http://[::1]:8787/x', true],
    ['http://checkout.example.com/s/1', false],
    ['http://127.0.0.1.evil.example/x', false],
    ['http://localhost.evil.example/x', false],
    ['javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['https://user:pass@checkout.example.com/', false],
    ['/relative/path', false],
    ['', false],
    [42, false],
  ])('%s → %s', (value, ok) => {
    const result = openableUrl(value);
    expect(result.ok).toBe(ok);
    if (!result.ok) expect(result.reason).toMatch(/not opened|no page/);
  });

  it('only the two operations that answer with a page open one, each from its own field', () => {
    const opening = Object.entries(WRITES)
      .filter(([, spec]) => 'opensUrlFrom' in spec)
      .map(([id, spec]) => [id, (spec as { opensUrlFrom: string }).opensUrlFrom]);
    expect(opening).toEqual([
      ['createCheckoutSession', 'checkout_url'],
      ['createBrokerageLink', 'link_url'],
    ]);
  });
});
