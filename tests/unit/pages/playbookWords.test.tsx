// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { UpgradeForm } from '@/lib/pages/sidepanel/PlaybookForms';
import { planName, playbookStatusText, visibilityText } from '@/lib/pages/playbookWords';
import { messageOf, useLocale } from '../../fixtures/i18n';

describe('a visibility in the popup’s words, wherever it is shown', () => {
  it.each(['en', 'de', 'fr', 'es', 'pt_BR', 'ja', 'zh_CN', 'ar'])('%s: the popup’s words', (file) => {
    useLocale(file);
    for (const visibility of ['private', 'unlisted', 'public'] as const)
      expect(visibilityText(visibility)).toBe(messageOf(file, `popup.visibility.${visibility}`));
  });

  it('German: capitalised as a value ("Öffentlich", never "öffentlich")', () => {
    useLocale('de');
    expect(visibilityText('public')).toBe('Öffentlich');
    expect(visibilityText('unlisted')).toBe('Nicht gelistet');
  });
});

describe('a plan, named for people', () => {
  afterEach(cleanup);

  it('shows a lower-case plan id as a name, and anything else as sent', () => {
    expect(planName('pro')).toBe('Pro');
    expect(planName('team')).toBe('Team');
    expect(planName('Enterprise Plus')).toBe('Enterprise Plus');
    expect(planName('')).toBe('');
  });

  it('the upgrade form offers names under "New plan", and sends the id', () => {
    useLocale('en');
    let sent = '';
    render(
      <UpgradeForm
        plans={['starter', 'pro']}
        plan="pro"
        onChange={() => undefined}
        onSubmit={(plan) => (sent = plan)}
        offline={{ disabled: false }}
      />,
    );
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'New plan' });
    expect([...select.options].map((option) => option.textContent)).toEqual(['Starter', 'Pro']);
    screen.getByRole('button', { name: 'Upgrade plan' }).click();
    expect(sent).toBe('pro');
  });

  it('a status unknown to this build is shown as sent', () => {
    useLocale('en');
    expect(playbookStatusText('active')).toBe('Active');
    expect(playbookStatusText('experimental')).toBe('experimental');
  });
});
