/**
 * The lint rule that keeps page components free of literal language (build/eslint-i18n.js).
 */
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
// @ts-expect-error: a plain JS ESLint plugin, typed by its JSDoc only.
import plugin from '../../../build/eslint-i18n.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({
  languageOptions: {
    ecmaVersion: 2022,
    sourceType: 'module',
    parserOptions: { ecmaFeatures: { jsx: true } },
  },
});

const rule = (plugin as { rules: Record<string, Parameters<RuleTester['run']>[1]> }).rules['no-literal-text'];

tester.run('i18n/no-literal-text', rule, {
  valid: [
    "<p>{t('popup.title')}</p>",
    "<button aria-label={t('popup.refresh')} title={t('popup.refresh')}>↻</button>",
    '<span>—</span>',
    '<span> · </span>',
    '<td>{value} %</td>',
    '<span>2</span>',
    "<span>{' '}</span>",
    "<input placeholder={t('options.url')} />",
    '<div className="status warn" data-state="open" role="status" />',
    "<img alt='' />",
    '<input placeholder="https://agent.example.com" />',
    '<a href={url}>{origin}/apikey</a>',
    '<p>{playbook.title}</p>',
  ],
  invalid: [
    { code: '<p>Loading the draft…</p>', errors: [{ messageId: 'text' }] },
    { code: "<p>{'Refresh'}</p>", errors: [{ messageId: 'text' }] },
    { code: '<p>{busy ? `Saving` : null}</p>', errors: [{ messageId: 'text' }] },
    { code: "<p>{count} {count === 1 ? 'playbook' : 'playbooks'}</p>", errors: [{ messageId: 'text' }] },
    { code: '<nav aria-label="Popup links" />', errors: [{ messageId: 'attribute' }] },
    { code: '<p aria-description="Shows the latest run" />', errors: [{ messageId: 'attribute' }] },
    { code: "<button title={'Refresh status'} />", errors: [{ messageId: 'attribute' }] },
    { code: '<input placeholder="Service address" />', errors: [{ messageId: 'attribute' }] },
    { code: '<img alt="Equity curve" />', errors: [{ messageId: 'attribute' }] },
    { code: '<option label="Daily" />', errors: [{ messageId: 'attribute' }] },
    { code: '<p>Straße · Ölpreis</p>', errors: [{ messageId: 'text' }] },
    { code: '<p>東京</p>', errors: [{ messageId: 'text' }] },
    { code: '<p>see /apikey</p>', errors: [{ messageId: 'text' }] },
  ],
});
