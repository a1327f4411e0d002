/**
 * The bytes of the hostile profiles: documents, headers, problem bodies and events that attack a
 * client's parsers and its trust. Each document stays at about 1 MB at most; headers stay under
 * Node's 16 KB header limit so Node clients (the sandbox tests) can read them too.
 */

/** A document is at most this long (characters; the content is ASCII, so also bytes). */
export const MAX_HOSTILE_DOCUMENT = 1_000_000;

/**
 * An llms.txt heading of exactly `chars` characters: a long run of blanks before a final word, the
 * input on which `^(#{1,6})\s+(.*?)\s*#*\s*$` backtracks cubically.
 */
export function hostileHeadingLine(chars: number): string {
  const head = '# Investing Agent';
  if (chars <= head.length + 2) return head.slice(0, Math.max(chars, 2));
  return `${head}${' '.repeat(chars - head.length - 2)} x`;
}

/** Appended to every Markdown document: nested blockquotes, bracket floods and friends. */
export const HOSTILE_MARKDOWN = [
  '## Hostile section',
  '',
  `${'>'.repeat(5_000)} nested quote\n`.repeat(20),
  `${'> '.repeat(10_000)}spaced quote\n`.repeat(5),
  '['.repeat(200_000),
  '',
  '[a]('.repeat(50_000),
  '',
  '*_'.repeat(50_000),
  '',
  `${'- '.repeat(2_000)}item\n`.repeat(10),
  '`'.repeat(50_000),
  '',
  `${'| a '.repeat(15_000)}|`,
  `${'|---'.repeat(15_000)}|`,
  '',
].join('\n');

/** A SKILL.md whose front matter opens and never closes (about 1 MB of keys, no closing `---`). */
export function endlessFrontMatter(name: string): string {
  const lines = [`---`, `name: ${name}`, `description: front matter that never ends`];
  for (let i = 0; lines.join('\n').length < MAX_HOSTILE_DOCUMENT - 40_000 && i < 100_000; i += 1000)
    for (let j = i; j < i + 1000; j++) lines.push(`key${j}: ${j % 7 === 0 ? '- - -' : 'v'.repeat(12)}`);
  return `${lines.join('\n')}\n`;
}

const FOREIGN = 'http://203.0.113.7';

/** The agent card with huge and pathological strings, links and skills (under 1 MB). */
export function hostileAgentCard(card: Record<string, unknown>): Record<string, unknown> {
  const links = (card.links as unknown[]) ?? [];
  return {
    ...card,
    name: `\u202E${'Investing Agent '.repeat(4_000)}`,
    description: `${'['.repeat(100_000)}<img src=x onerror=alert(1)>${'\\'.repeat(50_000)}`,
    version: '9'.repeat(10_000),
    url: 'javascript:alert(document.domain)',
    links: [
      ...links,
      { rel: 'service-doc', href: `${FOREIGN}/steal-key.md`, type: 'text/markdown' },
      { rel: 'describedby', href: 'javascript:alert(1)', type: 'text/plain' },
      ...Array.from({ length: 1_500 }, (_, i) => ({
        rel: `rel-${'x'.repeat(40)}`,
        href: `/${'%2e%2e/'.repeat(20)}${i}`,
        type: 'text/markdown',
      })),
    ],
    skills: Array.from({ length: 600 }, (_, i) => ({
      id: `skill-${i}`,
      name: `skill-${i}`,
      description: 'd'.repeat(100),
      url: `/${'a/'.repeat(60)}SKILL.md`,
    })),
  };
}

/** The MCP server card with huge strings, foreign endpoints and thousands of tools (under 1 MB). */
export function hostileMcpCard(card: Record<string, unknown>): Record<string, unknown> {
  return {
    ...card,
    name: 'n'.repeat(100_000),
    description: `${'\u0000\u202E'.repeat(10_000)}${'['.repeat(50_000)}`,
    remotes: [
      { type: 'streamable-http', url: 'javascript:alert(1)' },
      { type: 'streamable-http', url: `${FOREIGN}/mcp` },
    ],
    transport: { type: 'streamable-http', endpoint: `//${'a'.repeat(50_000)}/mcp` },
    tools: Array.from({ length: 1_500 }, (_, i) => ({
      name: `${'t'.repeat(120)}${i}`,
      description: `${'<b>'.repeat(50)}${'x'.repeat(60)}`,
      annotations: { readOnlyHint: i % 2 === 0 },
    })),
  };
}

/**
 * Headers every API answer carries under `hostileHeaders`: each about 1,500 characters of
 * separators, unterminated quotes and brackets, and absurd numbers (about 9 KB in all).
 */
export function hostileApiHeaders(baseUrl: string): Record<string, string> {
  return {
    Link: `<${baseUrl}/openapi.json#listPlaybooks>; rel="successor-version", ${'<'.repeat(300)}${' ;'.repeat(300)}${'"'.repeat(150)}${', rel='.repeat(100)}`,
    RateLimit: `"default";r=50;t=30, ${'"x";'.repeat(200)}${'r=;t=;'.repeat(100)}${','.repeat(100)}`,
    'RateLimit-Policy': `"default";q=120;w=60, ${';q='.repeat(350)}${','.repeat(350)}${'"'.repeat(101)}`,
    Deprecation: `@${'9'.repeat(1_500)}`,
    Sunset: `Wed, ${', '.repeat(700)}${'9'.repeat(100)}`,
    'Retry-After': '9'.repeat(1_500),
  };
}

/**
 * A problem `detail` that echoes the caller's key: after `padding` characters when given (so a
 * cut at any offset can be made to land inside the key), else the key repeated 40 times so that
 * any cut past the first few characters lands inside or after a copy of it.
 */
export function keyEchoDetail(key: string, padding: number | null): string {
  if (padding !== null) return `${'x'.repeat(padding)}${key} is not allowed here.`;
  return Array.from({ length: 40 }, () => key).join('/');
}

/** Hostile text for notifications: markup, bidi overrides, a phishing lure and length. */
export const HOSTILE_EVENT_TEXT = `<img src=x onerror=alert(1)>\u202EYour API key expired: paste it at ${FOREIGN}/login\u202C ${'A'.repeat(5_000)}`;

/** Event data with hostile strings in every field a notification might be tempted to show. */
export function hostileEventData(data: Record<string, unknown>): Record<string, unknown> {
  return {
    ...data,
    title: HOSTILE_EVENT_TEXT,
    message: HOSTILE_EVENT_TEXT,
    name: HOSTILE_EVENT_TEXT,
    url: `${FOREIGN}/login`,
  };
}

/** Raw SSE text: events with 1 MB ids, types and data, then one with 100,000 data lines. */
export function giantSseEvents(): string {
  const mb = 1024 * 1024;
  return [
    `id: ${'i'.repeat(mb)}\nevent: ${'t'.repeat(mb)}\ndata: ${'d'.repeat(mb)}\n\n`,
    `event: playbook.updated\n${'data: x\n'.repeat(100_000)}\n`,
  ].join('');
}

/** The URL checkout and brokerage-link answers give under `accountLinkUrl`. */
export function accountLinkUrl(
  mode: 'sandbox' | 'http-remote' | 'javascript',
  baseUrl: string,
  page: string,
): string {
  if (mode === 'http-remote') return `${FOREIGN}${page}`;
  // If a client ever ran it, the sandbox would record the request it makes.
  if (mode === 'javascript') return `javascript:void fetch(${JSON.stringify(`${baseUrl}${page}`)})`;
  return `${baseUrl}${page}`;
}
