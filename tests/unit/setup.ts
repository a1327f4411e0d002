import 'fake-indexeddb/auto';
import { beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { useLocale } from '../fixtures/i18n';

useLocale('en');

beforeEach(() => {
  fakeBrowser.reset();
  useLocale('en');
});
