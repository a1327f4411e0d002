/** Discovery's public surface: what the background wiring, the API client and the side panel import. */
export { runDiscovery, getOpenApiDocument, DiscoveryDocumentError } from './run';
export type { DiscoveryOptions, OpenApiDocument, OpenApiFetchDeps } from './run';
export { isCurrentDiscoveryReport, pricingSource } from './report';
export type {
  DiscoveryReport,
  DiscoveryStep,
  DiscoveryStepStatus,
  DiscoverySkill,
  DiscoveryDocuments,
  MarkdownSource,
} from './report';
export { clearDiscoveryCache, idbDocumentCache } from './cache';
export { restoredReport, storableReport } from './storedReport';
export type { StoredDiscoveryReport } from './storedReport';
export type { CachedDocument, DocumentCache } from './cache';
export { DISCOVERY_DOCUMENTS } from './documents';
export type { SafeBlock, SafeInline, SafeListItem } from './markdown';
export type { LlmsTxt } from './llmsTxt';
export type { PricingRow } from './pricing';
export type { AgentCard } from './agentCard';
export type { McpCard } from './mcpCard';
export type { OpenApiSummary } from './openapi';
export type { SkillVerification } from './verify';
