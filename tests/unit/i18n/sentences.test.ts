/**
 * Sentences side by side: Japanese and Chinese put nothing between them, the other languages a
 * space. Checked on the helper, on the places that join sentences, and on the locale files'
 * own templates that put a sentence placeholder before another sentence.
 */
import { describe, expect, it } from 'vitest';
import { errorFromStatus } from '@/lib/api';
import { withResult } from '@/lib/events/notifications';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { endSentence, joinSentences, resetLocaleCache, sentenceGap } from '@/lib/i18n';
import { chromeMessages, useLocale } from '../../fixtures/i18n';

const SITE_URL = 'https://svc.example.com';

describe('joinSentences', () => {
  it.each([
    ['en', ' '],
    ['de', ' '],
    ['fr', ' '],
    ['es', ' '],
    ['pt_BR', ' '],
    ['ar', ' '],
    ['ja', ''],
    ['zh_CN', ''],
  ])('%s puts %j between sentences', (file, gap) => {
    useLocale(file);
    expect(sentenceGap()).toBe(gap);
    expect(joinSentences('A.', 'B.')).toBe(`A.${gap}B.`);
  });

  it('follows the language of the messages, not the browser’s tag: zh-TW served English spaces', () => {
    // Chrome has no zh_TW messages here and falls back to the default locale (en).
    useLocale('en');
    (fakeBrowser.i18n as { getUILanguage: unknown }).getUILanguage = () => 'zh-TW';
    resetLocaleCache();
    expect(joinSentences('A.', 'B.')).toBe('A. B.');
  });

  it('leaves out empty parts and trims the rest', () => {
    useLocale('en');
    expect(joinSentences('', ' One. ', undefined, false, null, 'Two.')).toBe('One. Two.');
    expect(joinSentences()).toBe('');
  });
});

describe('the places that join sentences', () => {
  it('a 403 with the service’s own sentence: no space in Japanese and Chinese, one in German', () => {
    const forbidden = () =>
      errorFromStatus({
        operationId: 'activatePlaybook',
        status: 403,
        siteUrl: SITE_URL,
        problem: { detail: 'Plan limit reached.' },
      }).message;
    useLocale('ja');
    expect(forbidden()).toBe('activatePlaybook は許可されていません。Plan limit reached.');
    useLocale('zh_CN');
    expect(forbidden()).toBe('不允许执行 activatePlaybook。Plan limit reached.');
    useLocale('de');
    expect(forbidden()).toMatch(/\. Plan limit reached\.$/);
  });

  it('a 403 whose sentence has no stop gets one in its own script, whatever the UI language', () => {
    const forbidden = (detail: string) =>
      errorFromStatus({
        operationId: 'activatePlaybook',
        status: 403,
        siteUrl: SITE_URL,
        problem: { detail },
      }).message;
    useLocale('ja');
    expect(forbidden('プランの上限に達しました')).toBe(
      'activatePlaybook は許可されていません。プランの上限に達しました。',
    );
    expect(forbidden('Plan limit reached')).toBe(
      'activatePlaybook は許可されていません。Plan limit reached.',
    );
    useLocale('en');
    expect(forbidden('已达到套餐上限')).toMatch(/ 已达到套餐上限。$/);
  });

  it('endSentence keeps a stop that is there and adds one that fits the script', () => {
    expect(endSentence('Done')).toBe('Done.');
    expect(endSentence('Done!  ')).toBe('Done!');
    expect(endSentence('完了')).toBe('完了。');
    expect(endSentence('カタカナ')).toBe('カタカナ。');
    expect(endSentence('完了？')).toBe('完了？');
    expect(endSentence('هل انتهى؟')).toBe('هل انتهى؟');
    expect(endSentence('انتهى')).toBe('انتهى.');
    expect(endSentence('')).toBe('');
  });

  it('a notification’s result line before its message', () => {
    useLocale('ja');
    expect(withResult('リターン +12.3%', 'メッセージ。')).toBe('リターン +12.3%。メッセージ。');
    useLocale('en');
    expect(withResult('Return +12.3%', 'Message.')).toBe('Return +12.3%. Message.');
  });
});

describe('ja and zh templates put no space after a sentence', () => {
  // A full-width stop, then a space, then anything.
  const STOP_THEN_SPACE = /[。！？][ \u3000]+\S/u;
  // Ja and zh templates set a number or a name apart with spaces ("最多 {max} 项"), so a space after
  // a placeholder is wrong only when the placeholder ends a sentence. Which ones do is read from
  // en.yml: any placeholder English follows with a new sentence ("{error} Close this window"),
  // plus those that always hold one.
  const ALWAYS_SENTENCES = ['message', 'said', 'reason'];
  const en = chromeMessages('en');

  function sentencePlaceholders(english: string): string[] {
    const ending = [...english.matchAll(/\{(\w+)\}\s+\p{Lu}\p{Ll}/gu)].map((match) => match[1]);
    return [...new Set([...ALWAYS_SENTENCES, ...ending])];
  }

  function offends(message: string, english: string): boolean {
    if (STOP_THEN_SPACE.test(message)) return true;
    return sentencePlaceholders(english).some((name) =>
      new RegExp(`\\{${name}\\}[ \\u3000]+\\S`, 'u').test(message),
    );
  }

  it('the check finds a sentence placeholder by what English puts after it', () => {
    const english = 'It could not be read: {error} Close this window.';
    expect(sentencePlaceholders(english)).toContain('error');
    expect(offends('読めません：{error} 閉じてください。', english)).toBe(true);
    expect(offends('読めません：{error}閉じてください。', english)).toBe(false);
    expect(offends('完了。 次へ', 'Done. Next')).toBe(true);
    expect(offends('{message} 再送されます。', '{message}')).toBe(true);
    // A size or a count keeps its space: English follows it with a unit or a lower-case word.
    expect(offends('{size} KB を超えました。', 'Larger than {size} KB.')).toBe(false);
    expect(offends('最多 {max} 项。', 'At most {max} entries.')).toBe(false);
  });

  it.each(['ja', 'zh_CN'])('%s', (file) => {
    const offending = Object.entries(chromeMessages(file))
      .filter(([key, { message }]) => offends(message, en[key]?.message ?? ''))
      .map(([key, { message }]) => `${key}: ${message}`);
    expect(offending).toEqual([]);
  });
});
