/**
 * What a discovery run reports: its steps, the documents it read and the skills it checked. Plain
 * JSON: it crosses extension messaging and is stored (lib/discovery/run.ts makes it).
 */
import type { AgentCard } from './agentCard';
import { DISCOVERY_DOCUMENTS } from './documents';
import type { DocumentStatus } from './fetchDocument';
import type { LlmsTxt } from './llmsTxt';
import type { McpCard } from './mcpCard';
import type { OpenApiSummary } from './openapi';
import type { SkillVerification } from './verify';

export type DiscoveryStepStatus = DocumentStatus;

export interface DiscoveryStep {
  id: string;
  url: string;
  title: string;
  status: DiscoveryStepStatus;
  httpStatus?: number;
  ms: number;
  bytes: number;
  source: 'network' | 'cache';
  error?: string;
}

export interface DiscoverySkill {
  name: string;
  description: string;
  url: string;
  verification: SkillVerification;
  /** Present only for a verified skill whose SKILL.md parsed: its body, after the front matter. */
  body?: MarkdownSource;
  error?: string;
}

/**
 * A Markdown document as fetched (already bounded by the fetch) with the URL its relative links
 * resolve against. The worker stores the text; the side panel turns it into blocks when it shows
 * it (lib/discovery/markdown.ts, pricing.ts), so the Markdown lexer stays out of the worker.
 */
export interface MarkdownSource {
  text: string;
  baseUrl: string;
}

export interface DiscoveryDocuments {
  llms: LlmsTxt | null;
  llmsFull: LlmsTxt | null;
  developersLlms: LlmsTxt | null;
  agentCard: AgentCard | null;
  mcpCard: McpCard | null;
  /** Where the MCP client connects: the card's endpoint, else the contract's `/mcp`. */
  mcpEndpoint: string;
  skills: DiscoverySkill[];
  /** Every Markdown document (pricing included: pricingSource), keyed by contract path (`/auth.md`). */
  markdownSources: Record<string, MarkdownSource>;
  openapi?: unknown;
  openapiSummary?: OpenApiSummary;
}

export interface DiscoveryReport {
  baseUrl: string;
  startedAt: string;
  finishedAt: string;
  steps: DiscoveryStep[];
  documents: DiscoveryDocuments;
}

/**
 * Whether a stored report has this shape: one stored before the worker stopped converting
 * Markdown has `markdown` blocks and pricing rows instead, and is treated as no report.
 */
export function isCurrentDiscoveryReport(
  report: DiscoveryReport | null | undefined,
): report is DiscoveryReport {
  const sources: unknown = report?.documents?.markdownSources;
  return typeof sources === 'object' && sources !== null;
}

const PRICING_PATH = DISCOVERY_DOCUMENTS.find((document) => document.format === 'pricing')?.path ?? '';

/** The pricing document as fetched, if it was. */
export function pricingSource(documents: DiscoveryDocuments): MarkdownSource | null {
  return documents.markdownSources[PRICING_PATH] ?? null;
}
