import { describe, expect, it } from 'vitest';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { parseSitePattern } from '@/lib/finance/sites';
import { siteProblemText, urlProblemText } from '@/lib/i18n/problems';
import { useLocale } from '../../fixtures/i18n';

describe('the words for refused URLs and site addresses follow the UI language', () => {
  it('says a plain-http remote service is refused, in German', () => {
    useLocale('de');
    const problem = serviceUrlProblem('http://svc.example.com');
    expect(problem).toBe('insecure');
    expect(urlProblemText(problem!)).toBe(
      'Verwenden Sie https für einen Dienst, der nicht auf diesem Computer läuft.',
    );
  });

  it('quotes what the user typed as typed, even when it looks like a placeholder', () => {
    useLocale('fr');
    const result = parseSitePattern('{input}$1.-bad-.com');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(siteProblemText(result.problem, result.input)).toContain('« {input}$1.-bad-.com »');
  });
});
