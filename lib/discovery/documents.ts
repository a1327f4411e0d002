/**
 * The discovery documents in the order CONTRACT.md section 1 recommends (and the extension shows),
 * followed by the other documents the contract lists. Skills are dynamic: their steps are inserted
 * after the skills index, one per entry of the index.
 */

/** How a document is read once fetched. */
export type DiscoveryDocumentFormat =
  | 'llms-txt'
  | 'html'
  | 'openapi'
  | 'pricing'
  | 'mcp-card'
  | 'mcp-endpoint'
  | 'skills-index'
  | 'markdown'
  | 'agent-card';

export interface DiscoveryDocument {
  /** Stable step id shown in the report (skills get `skill:<name>`). */
  id: string;
  /** Path under the base URL, as the contract spells it. */
  path: string;
  title: string;
  format: DiscoveryDocumentFormat;
  /** Part of the contract's "Recommended discovery order" (the rest follow it). */
  recommended: boolean;
}

const ACCEPT_BY_FORMAT: Record<DiscoveryDocumentFormat, string> = {
  'llms-txt': 'text/plain, text/markdown;q=0.9, */*;q=0.1',
  html: 'text/html, */*;q=0.1',
  openapi: 'application/json, application/vnd.oai.openapi+json;q=0.9',
  pricing: 'text/markdown, text/plain;q=0.9, */*;q=0.1',
  'mcp-card': 'application/json',
  'mcp-endpoint': 'application/json, text/event-stream',
  'skills-index': 'application/json',
  markdown: 'text/markdown, text/plain;q=0.9, */*;q=0.1',
  'agent-card': 'application/json',
};

export function acceptHeaderFor(format: DiscoveryDocumentFormat): string {
  return ACCEPT_BY_FORMAT[format];
}

export const SKILLS_INDEX_STEP_ID = 'skills-index';

export const DISCOVERY_DOCUMENTS: readonly DiscoveryDocument[] = Object.freeze([
  {
    id: 'llms',
    path: '/llms.txt',
    title: 'Product context (llms.txt)',
    format: 'llms-txt',
    recommended: true,
  },
  {
    id: 'llms-full',
    path: '/llms-full.txt',
    title: 'Full product context (llms-full.txt)',
    format: 'llms-txt',
    recommended: true,
  },
  { id: 'api-docs', path: '/api-docs', title: 'API documentation', format: 'html', recommended: true },
  { id: 'openapi', path: '/openapi.json', title: 'OpenAPI document', format: 'openapi', recommended: true },
  { id: 'pricing', path: '/pricing.md', title: 'Pricing', format: 'pricing', recommended: true },
  {
    id: 'mcp-card',
    path: '/.well-known/mcp/server-card.json',
    title: 'MCP server card',
    format: 'mcp-card',
    recommended: true,
  },
  // Not fetched: the endpoint is recorded from the card and the MCP client does the talking.
  { id: 'mcp', path: '/mcp', title: 'MCP endpoint', format: 'mcp-endpoint', recommended: true },
  {
    id: SKILLS_INDEX_STEP_ID,
    path: '/.well-known/agent-skills/index.json',
    title: 'Agent skills index',
    format: 'skills-index',
    recommended: true,
  },
  { id: 'auth', path: '/auth.md', title: 'Authentication', format: 'markdown', recommended: true },
  {
    id: 'developers-llms',
    path: '/developers/llms.txt',
    title: 'Developer context (llms.txt)',
    format: 'llms-txt',
    recommended: false,
  },
  {
    id: 'api-docs-md',
    path: '/api-docs.md',
    title: 'API documentation (Markdown)',
    format: 'markdown',
    recommended: false,
  },
  { id: 'developers', path: '/developers.md', title: 'Developers', format: 'markdown', recommended: false },
  { id: 'explore', path: '/explore.md', title: 'Explore', format: 'markdown', recommended: false },
  { id: 'agents', path: '/AGENTS.md', title: 'AGENTS.md', format: 'markdown', recommended: false },
  { id: 'mcp-md', path: '/mcp.md', title: 'MCP guide', format: 'markdown', recommended: false },
  { id: 'webhooks', path: '/webhooks.md', title: 'Webhooks', format: 'markdown', recommended: false },
  { id: 'onboarding', path: '/onboarding.md', title: 'Onboarding', format: 'markdown', recommended: false },
  { id: 'sandbox', path: '/sandbox.md', title: 'Sandbox', format: 'markdown', recommended: false },
  { id: 'agent-card', path: '/agent.json', title: 'Agent card', format: 'agent-card', recommended: false },
] satisfies DiscoveryDocument[]);

/** The step id of one skill's SKILL.md. */
export function skillStepId(skillName: string): string {
  return `skill:${skillName}`;
}
