import { describe, expect, it } from 'vitest';
import { documentUrlFor, normalizeBaseUrl, resolveLinkHref, resolveWebUrl } from '@/lib/discovery/urls';

const DOC = 'https://svc.example/docs/llms.txt';

describe('resolveWebUrl', () => {
  it.each([
    ['/openapi.json', 'https://svc.example/openapi.json'],
    ['guide.md', 'https://svc.example/docs/guide.md'],
    ['../pricing.md', 'https://svc.example/pricing.md'],
    ['//cdn.example/x', 'https://cdn.example/x'],
    ['https://other.example/a?b#c', 'https://other.example/a?b#c'],
    ['  /padded  ', 'https://svc.example/padded'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['java\tscript:alert(1)', null],
    ['\u0000javascript:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['vbscript:msgbox', null],
    ['mailto:a@b.example', null],
    ['file:///etc/passwd', null],
    ['', null],
    ['http://[::1', null],
    [`/${'a'.repeat(5000)}`, null],
  ])('%j → %j', (reference, expected) => {
    expect(resolveWebUrl(reference, DOC)).toBe(expected);
  });
});

describe('resolveLinkHref', () => {
  it.each([
    ['mailto:team@svc.example', 'mailto:team@svc.example'],
    ['/x', 'https://svc.example/x'],
    ['javascript:void(0)', null],
    ['data:image/png;base64,AAAA', null],
    ['blob:https://svc.example/123', null],
  ])('%j → %j', (reference, expected) => {
    expect(resolveLinkHref(reference, DOC)).toBe(expected);
  });
});

describe('base URL', () => {
  it.each([
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://127.0.0.1:8787/', 'http://127.0.0.1:8787'],
    ['https://svc.example/app/?q=1#x', 'https://svc.example/app'],
  ])('normalizes %j', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it.each(['ftp://svc.example', 'javascript:alert(1)', 'not a url', 'https://user:pw@svc.example'])(
    'rejects %j',
    (input) => {
      expect(() => normalizeBaseUrl(input)).toThrow(TypeError);
    },
  );

  it('keeps a path prefix of the base URL', () => {
    expect(documentUrlFor('https://svc.example/app/', '/llms.txt')).toBe('https://svc.example/app/llms.txt');
  });
});
