import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { MatchPattern } from 'wxt/utils/match-patterns';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';

// The unit build is Chrome's; these tests ask the question as the Firefox build asks it.
vi.mock('@/lib/contract/origins', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/contract/origins')>();
  return { ...real, hostAccessPattern: (origin: string) => real.hostAccessPattern(origin, false) };
});

const { missingHostAccess } = await import('@/lib/background/state');
const realPattern = (await vi.importActual<typeof import('@/lib/contract/origins')>('@/lib/contract/origins'))
  .hostAccessPattern;

/** Firefox 153 as measured: a port-bearing pattern is never contained; a port-less one matches by host. */
function firefoxContains(granted: string[]) {
  return ({ origins = [] }: { origins?: string[] }) =>
    Promise.resolve(
      origins.every((pattern) => {
        const host = /^[a-z*]+:\/\/([^/]*)\//.exec(pattern)?.[1] ?? '';
        if (host.includes(':')) return false;
        return granted.some((grant) => new MatchPattern(grant).includes(pattern.replace(/\*$/, '')));
      }),
    );
}

const MANIFEST_HOSTS = ['http://127.0.0.1/*', 'http://localhost/*'];

describe('hostAccessPattern', () => {
  it('drops the port where patterns carry none (Firefox) and keeps it where they do (Chrome)', () => {
    expect(realPattern('http://127.0.0.1:8787', false)).toBe('http://127.0.0.1/*');
    expect(realPattern('https://api.example.com:8443', false)).toBe('https://api.example.com/*');
    expect(realPattern('http://127.0.0.1:8787', true)).toBe('http://127.0.0.1:8787/*');
    expect(realPattern('https://api.example.com', true)).toBe('https://api.example.com/*');
  });
});

describe('missingHostAccess in Firefox', () => {
  beforeEach(async () => {
    await saveSettings(DEFAULT_SETTINGS);
  });

  it('sees the sandbox origin on its port as granted by the manifest', async () => {
    fakeBrowser.permissions.contains = vi.fn(firefoxContains(MANIFEST_HOSTS));
    expect(await missingHostAccess(DEFAULT_SETTINGS)).toEqual([]);
  });

  it('still names an origin the browser has not granted', async () => {
    fakeBrowser.permissions.contains = vi.fn(firefoxContains(MANIFEST_HOSTS));
    const settings = {
      ...DEFAULT_SETTINGS,
      serviceUrl: 'https://agent.example:8443',
      apiUrl: 'https://api.agent.example/v1',
    };
    expect(await missingHostAccess(settings)).toEqual([
      'https://agent.example:8443',
      'https://api.agent.example',
    ]);
    fakeBrowser.permissions.contains = vi.fn(
      firefoxContains([...MANIFEST_HOSTS, 'https://agent.example/*', 'https://api.agent.example/*']),
    );
    expect(await missingHostAccess(settings)).toEqual([]);
  });
});
