import 'fake-indexeddb/auto';
import { beforeEach, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { useLocale } from '../fixtures/i18n';

useLocale('en');

beforeEach(() => {
  fakeBrowser.reset();
  useLocale('en');
});

// vi.waitFor gives up after one second by default: a busy CI machine can take longer to run a read
// or a worker step. Ten seconds unless a test says otherwise (a test that passes waits no longer).
const waitFor = vi.waitFor.bind(vi);
vi.waitFor = (callback, options) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: 10_000, interval: 20, ...options });
