// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildArticleDraft } from '@/lib/finance/capture';
import { sanitizeDraft } from '@/lib/finance/schema';

/** tests/fixtures/expected-leads.json: each finance fixture names the lead its draft must pick. */
interface ExpectedLead {
  url: string;
  lead: string;
  headline?: string;
  tickers?: string[];
}

const FIXTURES = resolve(process.cwd(), 'tests/fixtures');
const expected = JSON.parse(readFileSync(resolve(FIXTURES, 'expected-leads.json'), 'utf8')) as Record<
  string,
  ExpectedLead | string
>;
const fixtureFiles = ['finance', 'pages'].flatMap((folder) =>
  readdirSync(resolve(FIXTURES, folder))
    .filter((name) => name.endsWith('.html'))
    .map((name) => `${folder}/${name}`),
);
const cases = fixtureFiles.map((fixture) => ({
  fixture,
  want: expected[fixture] as ExpectedLead | undefined,
}));

function draftOf(fixture: string, url: string) {
  const html = readFileSync(resolve(FIXTURES, fixture), 'utf8');
  const document = new DOMParser().parseFromString(html, 'text/html');
  return buildArticleDraft({ url, title: document.title, document });
}

describe('the lead each finance fixture names', () => {
  it('every fixture names its expected lead', () => {
    expect(fixtureFiles.filter((fixture) => typeof expected[fixture] !== 'object')).toEqual([]);
  });

  it.each(cases)('$fixture: the draft picked the expected lead', ({ fixture, want }) => {
    if (!want) return expect.unreachable(`${fixture} names no expected lead`);
    const draft = draftOf(fixture, want.url);
    expect(draft.source.excerpt.slice(0, want.lead.length)).toBe(want.lead);
    // The thesis is the headline, then the lead.
    const [headline, lead] = draft.thesis.split('\n\n');
    expect(lead?.slice(0, want.lead.length)).toBe(want.lead);
    if (want.headline) {
      expect(headline).toBe(want.headline);
      expect(draft.source.title).toBe(want.headline);
    }
    if (want.tickers) expect(draft.tickers).toEqual(want.tickers);
    expect(sanitizeDraft(draft)).toEqual({ ok: true, draft });
  });
});
