import { describe, expect, it } from 'vitest';
import { contentScriptMatches, SANDBOX_DEMO_MATCHES } from '@/lib/pages/offer/sitePatterns';
import { STORE_MODE } from '@/lib/contract/buildMode';
import { DEFAULT_SITE_MATCHES } from '@/lib/finance/sites';

describe('contentScriptMatches', () => {
  it.each(['production', 'development', 'test'])('the %s build includes the sandbox demo pages', (mode) => {
    expect(contentScriptMatches(mode)).toEqual([...DEFAULT_SITE_MATCHES, ...SANDBOX_DEMO_MATCHES]);
  });

  it('the store build has the finance sites and nothing on loopback', () => {
    const matches = contentScriptMatches(STORE_MODE);
    expect(matches).toEqual(DEFAULT_SITE_MATCHES);
    expect(matches.filter((match) => /127\.0\.0\.1|localhost/.test(match))).toEqual([]);
  });
});
