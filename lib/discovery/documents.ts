/**
 * The discovery documents in the order CONTRACT.md section 1 recommends (and the extension shows),
 * followed by the other documents the contract lists. Skills are dynamic: their steps are inserted
 * after the skills index, one per entry of the index.
 */
import { t } from '@/lib/i18n';

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
    get title() {
      return t('errors.documentTitles.llms');
    },
    format: 'llms-txt',
    recommended: true,
  },
  {
    id: 'llms-full',
    path: '/llms-full.txt',
    get title() {
      return t('errors.documentTitles.llmsFull');
    },
    format: 'llms-txt',
    recommended: true,
  },
  {
    id: 'api-docs',
    path: '/api-docs',
    get title() {
      return t('errors.documentTitles.apiDocs');
    },
    format: 'html',
    recommended: true,
  },
  {
    id: 'openapi',
    path: '/openapi.json',
    get title() {
      return t('errors.documentTitles.openapi');
    },
    format: 'openapi',
    recommended: true,
  },
  {
    id: 'pricing',
    path: '/pricing.md',
    get title() {
      return t('errors.documentTitles.pricing');
    },
    format: 'pricing',
    recommended: true,
  },
  {
    id: 'mcp-card',
    path: '/.well-known/mcp/server-card.json',
    get title() {
      return t('errors.documentTitles.mcpCard');
    },
    format: 'mcp-card',
    recommended: true,
  },
  // Not fetched: the endpoint is recorded from the card and the MCP client does the talking.
  {
    id: 'mcp',
    path: '/mcp',
    get title() {
      return t('errors.documentTitles.mcp');
    },
    format: 'mcp-endpoint',
    recommended: true,
  },
  {
    id: SKILLS_INDEX_STEP_ID,
    path: '/.well-known/agent-skills/index.json',
    get title() {
      return t('errors.documentTitles.skillsIndex');
    },
    format: 'skills-index',
    recommended: true,
  },
  {
    id: 'auth',
    path: '/auth.md',
    get title() {
      return t('errors.documentTitles.auth');
    },
    format: 'markdown',
    recommended: true,
  },
  {
    id: 'developers-llms',
    path: '/developers/llms.txt',
    get title() {
      return t('errors.documentTitles.developersLlms');
    },
    format: 'llms-txt',
    recommended: false,
  },
  {
    id: 'api-docs-md',
    path: '/api-docs.md',
    get title() {
      return t('errors.documentTitles.apiDocsMd');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'developers',
    path: '/developers.md',
    get title() {
      return t('errors.documentTitles.developers');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'explore',
    path: '/explore.md',
    get title() {
      return t('errors.documentTitles.explore');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'agents',
    path: '/AGENTS.md',
    get title() {
      return t('errors.documentTitles.agents');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'mcp-md',
    path: '/mcp.md',
    get title() {
      return t('errors.documentTitles.mcpMd');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'webhooks',
    path: '/webhooks.md',
    get title() {
      return t('errors.documentTitles.webhooks');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'onboarding',
    path: '/onboarding.md',
    get title() {
      return t('errors.documentTitles.onboarding');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'sandbox',
    path: '/sandbox.md',
    get title() {
      return t('errors.documentTitles.sandbox');
    },
    format: 'markdown',
    recommended: false,
  },
  {
    id: 'agent-card',
    path: '/agent.json',
    get title() {
      return t('errors.documentTitles.agentCard');
    },
    format: 'agent-card',
    recommended: false,
  },
] satisfies DiscoveryDocument[]);

/** The step id of one skill's SKILL.md. */
export function skillStepId(skillName: string): string {
  return `skill:${skillName}`;
}
