/**
 * The public discovery documents, built per base URL. Text is about this service: an AI investing
 * agent that turns theses into playbooks. Decision support, not financial advice.
 */
import { DISCLAIMER, SERVICE_NAME, SERVICE_VERSION, SUMMARY } from './identity';
import { escapeHtml, htmlPage } from './html';
import { MCP_TOOLS } from './mcpTools';
import { PLAN_ROWS } from './plans';
import { sha256Hex, skillMarkdown, skills } from './skills';
import { CATEGORIES } from './seed';
import {
  endlessFrontMatter,
  HOSTILE_MARKDOWN,
  hostileAgentCard,
  hostileHeadingLine,
  hostileMcpCard,
} from './hostile';
import { LIMIT_DEFAULT, LIMIT_MAX, PLANS } from './schemas';

export const CONTENT_TYPES = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  json: 'application/json',
  html: 'text/html; charset=utf-8',
} as const;

export interface DiscoveryDocument {
  path: string;
  contentType: string;
  body: string;
  title: string;
}

export interface HostileDocuments {
  llmsHeadingChars: number;
  hostileMarkdown: boolean;
  endlessSkillFrontMatter: boolean;
  hostileCards: boolean;
}

export interface ContentOptions {
  baseUrl: string;
  apiUrl: string;
  tamperedSkillDigest: boolean;
  /** Page-size bounds the documents quote (the dialect's). */
  limits?: { min: number; max: number; default: number };
  /** Documents that attack parsers (sandbox/hostile.ts). */
  hostile?: HostileDocuments;
}

/** Every static discovery document, keyed by path. */
export function discoveryDocuments(options: ContentOptions): Map<string, DiscoveryDocument> {
  const { baseUrl, apiUrl } = options;
  const limits = options.limits ?? { min: 1, max: LIMIT_MAX, default: LIMIT_DEFAULT };
  const hostile = options.hostile;
  const docs = new Map<string, DiscoveryDocument>();
  const add = (path: string, kind: keyof typeof CONTENT_TYPES, title: string, body: string) =>
    docs.set(path, { path, contentType: CONTENT_TYPES[kind], body, title });

  const links: [string, string, string][] = [
    ['/llms-full.txt', 'Full product context', 'everything in one text file'],
    ['/api-docs', 'API documentation', 'operations, errors, pagination and idempotency'],
    ['/openapi.json', 'OpenAPI 3.1 document', 'operations by operationId with schemas'],
    ['/pricing.md', 'Pricing', 'plans, prices and limits'],
    ['/auth.md', 'Authentication', 'bearer API keys created at /apikey'],
    ['/mcp.md', 'MCP server', 'public read-only tools at /mcp'],
    ['/.well-known/agent-skills/index.json', 'Agent skills', 'skills with sha256 digests'],
    ['/AGENTS.md', 'Guidance for agents', 'rules for automated clients'],
  ];
  const llms = `# ${SERVICE_NAME}

> ${SUMMARY} ${DISCLAIMER}

The agent drafts a playbook from a thesis (for example "grid utilities win from data-centre load growth"),
backtests it against a benchmark, and, once you link a brokerage and confirm, runs it as live automation.

## Docs

${links.map(([href, title, note]) => `- [${title}](${baseUrl}${href}): ${note}`).join('\n')}

## Developers

- [Developer guide](${baseUrl}/developers.md): first call, pagination, retries
- [Webhooks and events](${baseUrl}/webhooks.md): event types, SSE stream and polling
- [Onboarding](${baseUrl}/onboarding.md): from sign-up to a first backtest
- [Sandbox](${baseUrl}/sandbox.md): this local reference service and its fault switches

## Optional

- [Explore public playbooks](${baseUrl}/explore.md): what other investors share
- [Use case: strategy backtesting](${baseUrl}/use-cases/automated-investment-strategy-backtesting): category page
`;
  add(
    '/llms.txt',
    'txt',
    'llms.txt',
    hostile?.llmsHeadingChars ? `${hostileHeadingLine(hostile.llmsHeadingChars)}\n${llms}` : llms,
  );

  const pricing = `# Pricing

Every plan includes the agent, backtests on daily data and the public MCP server. Prices are per month, billed monthly; cancel any time.

| Plan | Monthly price | Playbooks | Backtests | API rate limit | Live automation |
|---|---|---|---|---|---|
${PLAN_ROWS.map((p) => `| ${p.name} | ${p.price} | ${p.playbooks} | ${p.backtests} | ${p.rate} | ${p.live} |`).join('\n')}

Upgrade from the extension or through \`createCheckoutSession\` with \`{"plan": "${PLANS[1]}"}\`. ${DISCLAIMER}
`;
  const auth = `# Authentication

The API uses bearer API keys: \`Authorization: Bearer <key>\` on calls to ${apiUrl} only. Discovery
documents (this file, llms.txt, the OpenAPI document, the MCP card) never need a key: never send one to them.

1. Sign in at [${baseUrl}/apikey](${baseUrl}/apikey) and choose **Create key**.
2. The key is shown once. The service stores only its SHA-256 hash, so it cannot show it again.
3. A \`401\` means the key is missing, wrong or revoked: create a new one at \`/apikey\`.
4. A \`403\` is a problem body whose \`code\` names the missing permission or account state
   (\`permission_denied\`, \`brokerage_not_linked\`).

Keys carry the permissions of your plan: \`playbooks:read\`, \`playbooks:write\`, \`backtests:run\`,
\`execution:manage\`, \`billing:manage\`.
`;
  const apiDocsMd = `# ${SERVICE_NAME} API

Base URL: \`${apiUrl}\` (the OpenAPI document's \`servers[0].url\`). Find operations by \`operationId\` in
[/openapi.json](${baseUrl}/openapi.json); take method, path and parameters from there.

## Lists and pagination

Lists answer \`{data, has_more, next_cursor}\`. Cursors are opaque; follow \`next_cursor\` while \`has_more\`
is true and stop on a cursor you have already seen. \`limit\` is ${limits.min}–${limits.max}, default ${limits.default}.
GraphQL (\`POST ${apiUrl}/graphql\`) offers the same walk as a connection: \`playbooks(first, after, visibility)\`.

## Writes

Every write carries an \`Idempotency-Key\` (a UUID). Retrying with the same key and body returns the
committed answer with \`Idempotent-Replayed: true\`; another body with that key is \`422\`; a key still in
flight is \`409\`. \`updatePlaybook\` needs \`If-Match\` with the playbook's \`etag\`; a stale one is \`412\`.

## Errors and limits

Errors are \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, \`instance\`, \`code\`, and
\`errors[]\` for \`400\`. Every answer carries \`RateLimit\` and \`RateLimit-Policy\`; a \`429\` carries
\`Retry-After\` and \`RateLimit-Reset\`. Bodies over 64 KB are rejected.

## Deprecations

\`listPlaybooksLegacy\` is deprecated in favour of \`listPlaybooks\`; its answers carry \`Deprecation\`,
\`Sunset\` and \`Link: rel="successor-version"\`. Do not call an operation past its sunset.

${DISCLAIMER}
`;
  add('/api-docs.md', 'md', 'API documentation', apiDocsMd);
  const apiDocsHtml = htmlPage(
    `${SERVICE_NAME} API`,
    `<p>Base URL: <code>${escapeHtml(apiUrl)}</code>. The <a href="/openapi.json">OpenAPI 3.1 document</a> lists every operation by <code>operationId</code>; a Markdown version of this page is at <a href="/api-docs.md">/api-docs.md</a>.</p>
<h2>Lists</h2><p>Lists answer <code>{data, has_more, next_cursor}</code> with opaque cursors. Page size <code>limit</code> is ${limits.min}–${limits.max}, default ${limits.default}.</p>
<h2>Writes</h2><p>Every write carries an <code>Idempotency-Key</code>. Updates need <code>If-Match</code>. Live automation needs a linked brokerage.</p>
<h2>Errors</h2><p>Errors are <code>application/problem+json</code> with a stable <code>code</code>. Rate limits are announced in <code>RateLimit</code> headers.</p>`,
  );
  add('/api-docs', 'html', 'API documentation', apiDocsHtml);
  add('/pricing.md', 'md', 'Pricing', pricing);
  add('/auth.md', 'md', 'Authentication', auth);
  add(
    '/developers.md',
    'md',
    'Developer guide',
    `# Developer guide

1. Create a key at [/apikey](${baseUrl}/apikey).
2. \`GET ${apiUrl}/account\` with \`Authorization: Bearer <key>\` returns your plan and permissions.
3. \`listPlaybooks\` with \`limit=${limits.default}\` lists your playbooks; follow \`next_cursor\`.
4. \`POST ${apiUrl}/playbooks\` with an \`Idempotency-Key\` creates a draft.
5. \`POST ${apiUrl}/playbooks/{id}/backtests\` queues a backtest; the result arrives as a \`backtest.completed\` event.

Retry \`5xx\` answers and dropped connections with backoff and jitter within a bounded budget, reusing the
same Idempotency-Key for writes. After a \`429\`, hold back every call until \`Retry-After\` has passed.
`,
  );
  add(
    '/developers/llms.txt',
    'txt',
    'Developer llms.txt',
    `# ${SERVICE_NAME} for developers

> The REST, GraphQL and MCP interfaces of the ${SERVICE_NAME}. ${DISCLAIMER}

## API

- [OpenAPI document](${baseUrl}/openapi.json): every operation by operationId
- [API guide](${baseUrl}/api-docs.md): pagination, idempotency, errors, limits
- [Authentication](${baseUrl}/auth.md): bearer keys from /apikey

## Agents

- [MCP server](${baseUrl}/mcp.md): read-only public tools
- [Agent skills](${baseUrl}/.well-known/agent-skills/index.json): skill index with digests
- [Agent card](${baseUrl}/.well-known/agent.json): links to every resource
`,
  );
  add(
    '/explore.md',
    'md',
    'Explore',
    `# Explore public playbooks

Public playbooks are ideas investors chose to share: a thesis, the tickers it names and the rule that
drives it. Browse them with \`listPublicPlaybooks\` (no key needed) or the MCP tool \`search_public_playbooks\`.

## Categories

${CATEGORIES.map((c) => `- **${c.name}** (\`${c.slug}\`): ${c.summary}`).join('\n')}

Copying a public playbook creates your own private draft. ${DISCLAIMER}
`,
  );
  add(
    '/AGENTS.md',
    'md',
    'Guidance for agents',
    `# Guidance for automated agents

- Read \`/llms.txt\` first, then \`/openapi.json\`. Find operations by \`operationId\`.
- Never send credentials to discovery documents or to any origin other than the API's.
- Every write is a user-confirmed intent with its own \`Idempotency-Key\`. Never batch writes.
- Never activate live automation, start a checkout or link a brokerage without the user's explicit confirmation.
- New playbooks are private unless the user chooses otherwise.
- Respect \`Retry-After\` and the \`RateLimit\` headers; stop following a cursor you have already seen.
- Present results as ${DISCLAIMER.toLowerCase().replace(/\.$/, '')}.
`,
  );
  add(
    '/mcp.md',
    'md',
    'MCP server',
    `# MCP server

\`${baseUrl}/mcp\` speaks MCP Streamable HTTP (protocol 2025-11-25 and newer). It is public and read-only:
no key, no writes. The server card is at \`/.well-known/mcp/server-card.json\`.

| Tool | What it returns |
|---|---|
${MCP_TOOLS.map((t) => `| \`${t.name}\` | ${t.description} |`).join('\n')}

Every tool carries \`annotations.readOnlyHint: true\`. Resources mirror the discovery documents.
`,
  );
  add(
    '/webhooks.md',
    'md',
    'Events',
    `# Events

Every write appends an event for its owner: \`playbook.created\`, \`playbook.updated\`, \`execution.started\`,
\`execution.stopped\`, \`backtest.completed\`. Each event is \`{id, type, playbook_id, at, data}\`.

- Polling: \`listEvents\` (\`GET ${apiUrl}/events?cursor=…\`) always returns a \`next_cursor\` to poll from; \`has_more: false\` means caught up.
- Streaming: \`streamEvents\` (\`GET ${apiUrl}/events/stream\`) is Server-Sent Events with \`event:\` set to the type and \`id:\` to the event id.
  Reconnect with \`Last-Event-ID\` to resume; a comment heartbeat arrives every 15 seconds.
`,
  );
  add(
    '/onboarding.md',
    'md',
    'Onboarding',
    `# Onboarding

1. **Sign up** and pick a plan (see [pricing](${baseUrl}/pricing.md)).
2. **Describe a thesis** in plain words, or select text on a finance page and choose "Turn this into a playbook".
3. **Review the draft**: title, thesis, tickers and visibility (private by default).
4. **Backtest** it over a window you choose against a benchmark.
5. **Link a brokerage** only if you want live automation, then activate the playbook and confirm.

${DISCLAIMER}
`,
  );
  add(
    '/sandbox.md',
    'md',
    'Sandbox',
    `# Sandbox

This server is the local reference implementation of the ${SERVICE_NAME} contract. It serves every discovery
document, the API under \`${apiUrl}\` and MCP at \`/mcp\` from SQLite, with fault switches for tests
(latency, 429 bursts, 5xx, 5xx after commit, malformed JSON, wrong content type, repeating cursors, endless
\`has_more\`, a tampered skill digest, a past sunset). No real money, orders or brokerages are involved.
`,
  );

  for (const category of CATEGORIES.slice(0, 1)) {
    add(
      `/use-cases/${category.slug}`,
      'html',
      category.name,
      htmlPage(
        category.name,
        `<p>${escapeHtml(category.summary)}</p>
<h2>How it works</h2>
<ol><li>Write the idea: a thesis, a screener rule or a rebalancing schedule.</li>
<li>The agent drafts a playbook with tickers and rules; you edit it.</li>
<li>Run a backtest over your chosen window against a benchmark such as SPY.</li>
<li>Read the total return, drawdown and Sharpe ratio next to the benchmark before deciding anything.</li></ol>
<p>See <a href="/pricing.md">pricing</a> for backtest allowances and <a href="/api-docs">the API</a> for <code>runBacktest</code>.</p>`,
      ),
    );
  }

  const skillList = skills(apiUrl);
  const skillEntries = skillList.map((skill, index) => {
    const path = `/.well-known/agent-skills/${skill.name}/SKILL.md`;
    const body =
      hostile?.endlessSkillFrontMatter && index === 0 ? endlessFrontMatter(skill.name) : skillMarkdown(skill);
    add(path, 'md', `Skill: ${skill.name}`, body);
    const digest =
      options.tamperedSkillDigest && index === 0 ? sha256Hex(`${body}tampered`) : sha256Hex(body);
    return {
      name: skill.name,
      type: 'skill-md',
      description: skill.description,
      url: `/.well-known/agent-skills/${skill.name}/SKILL.md`,
      digest: `sha256:${digest}`,
    };
  });
  add(
    '/.well-known/agent-skills/index.json',
    'json',
    'Agent skills index',
    JSON.stringify(
      { $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json', skills: skillEntries },
      null,
      2,
    ),
  );

  const mcpCard = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: 'test.investing-agent/public',
    version: SERVICE_VERSION,
    description: `Public, read-only MCP tools of the ${SERVICE_NAME}: product overview, categories and public playbook search.`,
    remotes: [{ type: 'streamable-http', url: `${baseUrl}/mcp` }],
    serverInfo: {
      name: 'investing-agent-public',
      title: `${SERVICE_NAME} (public)`,
      version: SERVICE_VERSION,
    },
    protocolVersion: '2025-11-25',
    transport: { type: 'streamable-http', endpoint: '/mcp' },
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    tools: MCP_TOOLS.map((t) => ({ ...t, annotations: { readOnlyHint: true } })),
  };
  add(
    '/.well-known/mcp/server-card.json',
    'json',
    'MCP server card',
    JSON.stringify(hostile?.hostileCards ? hostileMcpCard(mcpCard) : mcpCard, null, 2),
  );

  const typeOf = (path: string) => {
    if (path === '/status' || path === '/apikey' || path === '/api-docs' || path.startsWith('/use-cases/'))
      return 'text/html';
    if (path.endsWith('.json') || path === '/mcp') return 'application/json';
    if (path.endsWith('.md')) return 'text/markdown';
    return 'text/plain';
  };
  const cardLinks = [
    ['describedby', '/llms.txt'],
    ['describedby', '/llms-full.txt'],
    ['describedby', '/developers/llms.txt'],
    ['service-desc', '/openapi.json'],
    ['service-doc', '/api-docs'],
    ...[
      '/api-docs.md',
      '/developers.md',
      '/explore.md',
      '/auth.md',
      '/pricing.md',
      '/AGENTS.md',
      '/mcp.md',
      '/webhooks.md',
      '/onboarding.md',
      '/sandbox.md',
    ].map((p) => ['service-doc', p]),
    ['mcp-server-card', '/.well-known/mcp/server-card.json'],
    ['mcp', '/mcp'],
    ['agent-skills', '/.well-known/agent-skills/index.json'],
    ['status', '/status'],
    ['create-api-key', '/apikey'],
    ['related', `/use-cases/${CATEGORIES[0].slug}`],
  ].map(([rel, href]) => ({ rel: rel, href: href, type: typeOf(href) }));
  const agentCard = {
    name: SERVICE_NAME,
    description: `${SUMMARY} ${DISCLAIMER}`,
    version: SERVICE_VERSION,
    url: baseUrl,
    capabilities: { rest: true, graphql: true, mcp: true, streaming: true, pushNotifications: false },
    links: cardLinks,
    skills: skillEntries.map((s) => ({ id: s.name, name: s.name, description: s.description, url: s.url })),
  };
  const agentCardText = JSON.stringify(
    hostile?.hostileCards ? hostileAgentCard(agentCard) : agentCard,
    null,
    2,
  );
  add('/agent.json', 'json', 'Agent card', agentCardText);
  add('/.well-known/agent.json', 'json', 'Agent card', agentCardText);

  const fullSections = [
    '/api-docs.md',
    '/auth.md',
    '/pricing.md',
    '/webhooks.md',
    '/mcp.md',
    '/AGENTS.md',
    '/onboarding.md',
  ].map((p) => docs.get(p)!.body);
  add('/llms-full.txt', 'txt', 'llms-full.txt', `${llms}\n${fullSections.join('\n')}`);
  if (hostile?.hostileMarkdown)
    for (const doc of docs.values())
      if (doc.contentType === CONTENT_TYPES.md && !doc.path.endsWith('/SKILL.md'))
        doc.body = `${doc.body}\n${HOSTILE_MARKDOWN}`;
  return docs;
}
