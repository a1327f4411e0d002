/**
 * German joins a name and a noun with a hyphen ("Sharpe-Ratio", as "Benchmark-Rendite"), never
 * with a space as English does: every German message that names the Sharpe ratio writes it so.
 */
import { describe, expect, it } from 'vitest';
import { chromeMessages } from '../../fixtures/i18n';

describe('German compounds', () => {
  it('writes Sharpe-Ratio with a hyphen wherever it appears', () => {
    const messages = Object.entries(chromeMessages('de')).filter(([, { message }]) =>
      /sharpe/i.test(message),
    );
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.filter(([, { message }]) => /Sharpe(?!-Ratio)/.test(message))).toEqual([]);
  });
});
