import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { installContextMenus } from '@/lib/background/contextMenus';
import { notificationFor, summaryNotification, withResult } from '@/lib/events/notifications';
import { offerText, type ExtensionApi } from '@/lib/pages/offer/runtime';
import { REFUSAL_MESSAGE } from '@/lib/pages/offer/clickGuard';
import { useLocale } from '../../fixtures/i18n';

const fakeMenus = fakeBrowser.contextMenus;
afterEach(() => Object.assign(fakeBrowser, { contextMenus: fakeMenus }));

/** The titles installContextMenus gives the browser (the fake has no context menus of its own). */
async function menuTitles(): Promise<string[]> {
  const create = vi.fn();
  Object.assign(fakeBrowser, { contextMenus: { removeAll: vi.fn(() => Promise.resolve()), create } });
  await installContextMenus();
  return create.mock.calls.map(([item]) => (item as { title: string }).title);
}

describe('the context menu', () => {
  it('keeps its English titles', async () => {
    expect(await menuTitles()).toEqual([
      'Turn selection into a playbook',
      'Turn this link into a playbook',
      'Turn this page into a playbook',
      'Open the Playbooks side panel',
    ]);
  });

  it('speaks German in a German browser', async () => {
    useLocale('de');
    expect(await menuTitles()).toEqual([
      'Aus der Auswahl ein Playbook machen',
      'Aus diesem Link ein Playbook machen',
      'Aus dieser Seite ein Playbook machen',
      'Playbooks-Seitenleiste öffnen',
    ]);
  });
});

describe('notifications', () => {
  it('are German in a German browser, the playbook’s title as the service sent it', () => {
    useLocale('de');
    expect(notificationFor('backtest.completed', 'Momentum')).toEqual({
      title: 'Backtest abgeschlossen',
      message: '„Momentum“. Entscheidungshilfe, keine Finanzberatung.',
    });
    expect(notificationFor('execution.started', undefined).message).toBe(
      'Eines Ihrer Playbooks. Entscheidungshilfe, keine Finanzberatung.',
    );
    expect(withResult('+12,3 % vs SPY', 'x')).toBe('+12,3 % vs SPY. x');
    expect(summaryNotification(1).message).toBe(
      '1 Playbook geändert. Entscheidungshilfe, keine Finanzberatung.',
    );
    expect(summaryNotification(1234).message).toMatch(/^1\.234 Playbooks geändert\. /);
  });

  it('choose the Arabic plural form for each count (few for 3, many for 11)', () => {
    useLocale('ar');
    const three = summaryNotification(3).message;
    const eleven = summaryNotification(11).message;
    // Digits as this runtime's ICU writes Arabic numbers (Latin in newer CLDR, Arabic-Indic before).
    const arabic = (count: number) => new Intl.NumberFormat('ar').format(count);
    expect(three.startsWith(`تغيّرت ${arabic(3)} أدلة استثمارية.`)).toBe(true);
    expect(eleven.startsWith(`تغيّر ${arabic(11)} دليلًا استثماريًا.`)).toBe(true);
    expect(summaryNotification(2).message).toContain('دليلان');
    expect(summaryNotification(100).message).toMatch(/دليل استثماري\./u);
    expect(new Set([three.replace(/\p{Nd}/gu, ''), eleven.replace(/\p{Nd}/gu, '')]).size).toBe(2);
  });

  it('summarize in Japanese with the one form Japanese has', () => {
    useLocale('ja');
    expect(summaryNotification(1).message).toMatch(/^1 件のプレイブックが変更されました。/u);
    expect(summaryNotification(5).message).toMatch(/^5 件のプレイブックが変更されました。/u);
  });
});

describe('the offer', () => {
  const api = fakeBrowser as unknown as ExtensionApi;

  it('keeps the accessible name "Turn this into a playbook" in English', () => {
    expect(offerText(api, 'offer.turn')).toBe('Turn this into a playbook');
    expect(offerText(api, REFUSAL_MESSAGE.covered)).toBe(
      'Something on the page covers this button. Nothing was sent.',
    );
  });

  it('reads its words in the UI language only', () => {
    useLocale('de');
    expect(offerText(api, 'offer.turn')).toBe('Daraus ein Playbook machen');
    expect(offerText(api, 'offer.hide')).toBe('Auf dieser Website ausblenden');
    useLocale('ar');
    expect(offerText(api, 'offer.turn')).toBe('تحويل هذا إلى دليل استثماري');
  });
});
