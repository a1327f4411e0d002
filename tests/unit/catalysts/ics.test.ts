import { describe, expect, it } from 'vitest';
import { buildCalendar, escapeText, foldLine } from '@/lib/catalysts/ics';
import { catalystSchema, type Catalyst } from '@/lib/contract/catalyst';
import { encoder, parseCalendar, prop, text } from '../../fixtures/icsReader';

const catalyst = (overrides: Partial<Catalyst> = {}): Catalyst =>
  catalystSchema.parse({
    id: 'cat_nvda_q_earnings',
    ticker: 'NVDA',
    kind: 'earnings',
    title: 'NVIDIA quarterly earnings',
    at: '2026-03-05T21:20:00Z',
    all_day: false,
    status: 'confirmed',
    session: 'after-close',
    source_url: 'https://investor.example.com/nvda/events',
    playbook_ids: ['pb_1'],
    sequence: 3,
    updated_at: '2026-03-04T12:00:00Z',
    ...overrides,
  });

const JAPANESE = 'トヨタ自動車 第2四半期決算発表（連結）・説明会のライブ配信あり';
const NOW = Date.parse('2026-03-04T12:34:56.789Z');

function calendar(catalysts: Catalyst[], playbookTitle = 'AI inference silicon') {
  return buildCalendar({
    catalysts,
    apiUrl: 'https://user:s3cret-token@api.example.com:8443/v1?key=iak_secret',
    playbookTitle,
    now: NOW,
    notes: (c) => [c.status === 'estimated' ? 'Estimated date' : 'Confirmed date'],
  });
}

describe('buildCalendar', () => {
  it('one VEVENT per catalyst, field by field, read back by a strict parser', () => {
    const file = calendar([
      catalyst(),
      catalyst({ id: 'cat_amd', ticker: 'AMD', at: '2026-03-31', all_day: true, status: 'estimated' }),
      catalyst({ id: 'cat_lly', ticker: 'LLY', at: '2026-03-06T09:30:00-05:00', status: 'cancelled' }),
    ]);
    const root = parseCalendar(file);
    expect(root.name).toBe('VCALENDAR');
    expect(prop(root, 'VERSION')!.value).toBe('2.0');
    expect(prop(root, 'PRODID')!.value).toMatch(/^-\/\/.+\/\/EN$/);
    const [nvda, amd, lly] = root.components;
    expect(root.components.map((c) => c.name)).toEqual(['VEVENT', 'VEVENT', 'VEVENT']);
    expect(text(prop(nvda, 'UID')!.value)).toBe('cat_nvda_q_earnings@api.example.com:8443');
    expect(prop(nvda, 'DTSTAMP')!.value).toBe('20260304T123456Z');
    expect(prop(nvda, 'DTSTART')).toEqual({ name: 'DTSTART', params: {}, value: '20260305T212000Z' });
    expect(prop(nvda, 'SEQUENCE')!.value).toBe('3');
    expect(prop(nvda, 'STATUS')!.value).toBe('CONFIRMED');
    expect(text(prop(nvda, 'SUMMARY')!.value)).toBe('NVDA: NVIDIA quarterly earnings');
    expect(text(prop(nvda, 'DESCRIPTION')!.value)).toBe('AI inference silicon\nConfirmed date');
    expect(prop(nvda, 'URL')!.value).toBe('https://investor.example.com/nvda/events');
    expect(prop(nvda, 'LAST-MODIFIED')!.value).toBe('20260304T120000Z');
    // All-day: VALUE=DATE, DTEND the next day (across a month end), TENTATIVE for an estimated date.
    expect(prop(amd, 'DTSTART')).toEqual({ name: 'DTSTART', params: { VALUE: 'DATE' }, value: '20260331' });
    expect(prop(amd, 'DTEND')).toEqual({ name: 'DTEND', params: { VALUE: 'DATE' }, value: '20260401' });
    expect(prop(amd, 'STATUS')!.value).toBe('TENTATIVE');
    // A date-time with an offset is written in UTC.
    expect(prop(lly, 'DTSTART')!.value).toBe('20260306T143000Z');
    expect(prop(lly, 'STATUS')!.value).toBe('CANCELLED');
  });

  it('the same catalyst after a move keeps its UID and carries the higher SEQUENCE', () => {
    const before = parseCalendar(calendar([catalyst({ sequence: 1 })])).components[0];
    const after = parseCalendar(calendar([catalyst({ sequence: 2, at: '2026-03-09T21:20:00Z' })]))
      .components[0];
    expect(prop(after, 'UID')).toEqual(prop(before, 'UID'));
    expect([prop(before, 'SEQUENCE')!.value, prop(after, 'SEQUENCE')!.value]).toEqual(['1', '2']);
  });

  it("names no key or account secret: only the API URL's host", () => {
    const file = calendar([catalyst()]);
    for (const secret of ['s3cret', 'user', 'iak_secret', 'key=', '/v1']) expect(file).not.toContain(secret);
  });

  it('every line ends in CRLF, including the last', () => {
    const file = calendar([catalyst()]);
    expect(file.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(file.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });
});

describe('folding at 75 octets', () => {
  it('a Japanese title (3 octets a character) folds by octets and reads back whole', () => {
    const long = `${JAPANESE}、${JAPANESE}`;
    const file = calendar([catalyst({ ticker: '7203.T', title: long })], `${JAPANESE} 😀 playbook`);
    const lines = file.split('\r\n');
    // Folded: more than one physical line for the summary, each at most 75 octets.
    expect(lines.filter((l) => l.startsWith(' ')).length).toBeGreaterThan(2);
    for (const line of lines) expect(encoder.encode(line).length).toBeLessThanOrEqual(75);
    const event = parseCalendar(file).components[0];
    expect(text(prop(event, 'SUMMARY')!.value)).toBe(`7203.T: ${long}`);
    expect(text(prop(event, 'DESCRIPTION')!.value)).toBe(`${JAPANESE} 😀 playbook\nConfirmed date`);
  });

  it('fills lines: a fold happens only where the next character would pass 75 octets', () => {
    for (const ch of ['a', 'é', '決', '😀']) {
      const folded = foldLine(`SUMMARY:${ch.repeat(200)}`).split('\r\n');
      const size = encoder.encode(ch).length;
      for (const line of folded.slice(0, -1)) expect(75 - encoder.encode(line).length).toBeLessThan(size);
      expect(folded.slice(1).every((l) => l.startsWith(' '))).toBe(true);
      expect(folded.map((l, i) => (i ? l.slice(1) : l)).join('')).toBe(`SUMMARY:${ch.repeat(200)}`);
    }
  });

  it('a line of exactly 75 octets is not folded; 76 is', () => {
    expect(foldLine('X'.repeat(75))).toBe('X'.repeat(75));
    expect(foldLine('X'.repeat(76))).toBe(`${'X'.repeat(75)}\r\n X`);
  });

  // The reader above must catch both ways of getting folding wrong, or passing it proves nothing.
  it('the strict reader refuses a fold by characters and a fold that cuts a character', () => {
    const line = `SUMMARY:${JAPANESE}${JAPANESE}`;
    const byCharacters = (l: string) => (l.match(/.{1,75}/gu) ?? []).join('\r\n ');
    const bytes = encoder.encode(line);
    const byOctets = [bytes.slice(0, 75), bytes.slice(75)];
    const cut = `${new TextDecoder().decode(byOctets[0])}\r\n ${new TextDecoder().decode(byOctets[1])}`;
    const wrap = (l: string) => `BEGIN:VCALENDAR\r\n${l}\r\nEND:VCALENDAR\r\n`;
    expect(() => parseCalendar(wrap(byCharacters(line)))).toThrow(/octets/);
    expect(() => parseCalendar(wrap(cut))).toThrow(/cut character/);
    // By UTF-16 units: 18 units of emoji are 36 octets, but the fold lands inside a surrogate pair.
    const emoji = `SUMMARY:${'😀'.repeat(30)}`;
    const byUnits = (emoji.match(/[\s\S]{1,17}/g) ?? []).join('\r\n ');
    expect(() => parseCalendar(wrap(byUnits))).toThrow(/cut character/);
    expect(() => parseCalendar(wrap(foldLine(emoji)))).not.toThrow();
    expect(() => parseCalendar(wrap(foldLine(line)))).not.toThrow();
  });
});

describe('TEXT escaping', () => {
  it('backslash, semicolon, comma and every newline form are escaped and read back', () => {
    const title = 'Q3; revenue, guidance \\ margins\r\nline two\rthree\nfour';
    const event = parseCalendar(calendar([catalyst({ title })], 'Ideas; mine, all')).components[0];
    expect(text(prop(event, 'SUMMARY')!.value)).toBe(
      'NVDA: Q3; revenue, guidance \\ margins\nline two\nthree\nfour',
    );
    expect(text(prop(event, 'DESCRIPTION')!.value)).toBe('Ideas; mine, all\nConfirmed date');
  });

  it('escapeText: exact output, the backslash first so no escape is escaped twice', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    expect(escapeText('\\n')).toBe('\\\\n');
  });

  it('other control characters are dropped, so a title cannot start a property of its own', () => {
    const file = calendar([catalyst({ title: 'ok\u0000\u001b\u007f\u000bEND:VEVENT' })]);
    const event = parseCalendar(file).components[0];
    expect(text(prop(event, 'SUMMARY')!.value)).toBe('NVDA: okEND:VEVENT');
    expect(parseCalendar(file).components).toHaveLength(1);
  });

  it('the strict reader refuses an unescaped comma or semicolon, so the checks above can fail', () => {
    expect(() => text('a,b')).toThrow(/unescaped/);
    expect(() => text('a;b')).toThrow(/unescaped/);
    expect(() => text('a\\xb')).toThrow(/unknown escape/);
  });
});
