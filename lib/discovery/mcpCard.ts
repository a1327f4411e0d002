/**
 * The MCP server card, read in either draft shape the contract names (January-2026 draft:
 * `serverInfo`, `transport.endpoint`, `capabilities`, `tools`; SEP-2127: `name`, `version`,
 * `description`, `remotes[]`) and normalized to one shape. Both standards are drafts, so unknown
 * keys are allowed and only what the extension uses is required.
 */
import { t } from '@/lib/i18n';
import { z } from 'zod';
import { resolveWebUrl } from './urls';

const Text = z.string().max(2_000);

const CardTool = z.looseObject({
  name: z.string().min(1).max(200),
  title: Text.optional(),
  description: Text.optional(),
  annotations: z.looseObject({ title: Text.optional(), readOnlyHint: z.boolean().optional() }).optional(),
});

const DraftCardSchema = z.looseObject({
  serverInfo: z.looseObject({
    name: z.string().min(1).max(200),
    version: Text.optional(),
    title: Text.optional(),
  }),
  description: Text.optional(),
  transport: z.looseObject({ type: Text.optional(), endpoint: z.string().min(1).max(4_096) }),
  capabilities: z.record(z.string(), z.unknown()).optional(),
  // The draft lets a server say "dynamic" instead of listing its tools.
  tools: z.union([z.array(CardTool).max(500), z.string()]).optional(),
});

const Remote = z.looseObject({ type: Text.optional(), url: z.string().min(1).max(4_096) });

const Sep2127CardSchema = z.looseObject({
  name: z.string().min(1).max(200),
  title: Text.optional(),
  version: Text.optional(),
  description: Text.optional(),
  remotes: z.array(Remote).min(1).max(50),
  tools: z.union([z.array(CardTool).max(500), z.string()]).optional(),
});

export const McpCardToolSchema = z.object({
  name: z.string(),
  /** The tool's name for people (`title`, else `annotations.title`), when the card gives one. */
  title: z.string().optional(),
  description: z.string(),
  readOnlyHint: z.boolean().nullable(),
});
export type McpCardTool = z.infer<typeof McpCardToolSchema>;

export interface McpCard {
  name: string;
  version: string;
  description: string;
  /** Absolute http(s) URL of the Streamable HTTP endpoint. */
  endpoint: string;
  tools?: McpCardTool[];
  shape: 'draft-2026-01' | 'sep-2127';
}

export class McpCardFormatError extends Error {
  override name = 'McpCardFormatError';
}

const STREAMABLE_TYPES = new Set(['streamable-http', 'streamable_http', 'http']);

function normalizeTools(tools: z.infer<typeof CardTool>[] | string | undefined): McpCardTool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    ...((tool.title ?? tool.annotations?.title) ? { title: tool.title ?? tool.annotations?.title } : {}),
    description: tool.description ?? tool.title ?? '',
    readOnlyHint: tool.annotations?.readOnlyHint ?? null,
  }));
}

function endpointOrThrow(reference: string, cardUrl: string): string {
  const endpoint = resolveWebUrl(reference, cardUrl);
  if (!endpoint) throw new McpCardFormatError(t('errors.discovery.mcpEndpoint'));
  return endpoint;
}

/** Normalizes a parsed card JSON; relative endpoints resolve against the card's URL. */
export function parseMcpCard(json: unknown, cardUrl: string): McpCard {
  const draft = DraftCardSchema.safeParse(json);
  if (draft.success) {
    const card = draft.data;
    return {
      name: card.serverInfo.name,
      version: card.serverInfo.version ?? '',
      description: card.description ?? card.serverInfo.title ?? '',
      endpoint: endpointOrThrow(card.transport.endpoint, cardUrl),
      tools: normalizeTools(card.tools),
      shape: 'draft-2026-01',
    };
  }
  const sep = Sep2127CardSchema.safeParse(json);
  if (sep.success) {
    const card = sep.data;
    const remote =
      card.remotes.find((r) => STREAMABLE_TYPES.has((r.type ?? '').toLowerCase())) ?? card.remotes[0];
    return {
      name: card.name,
      version: card.version ?? '',
      description: card.description ?? card.title ?? '',
      endpoint: endpointOrThrow(remote.url, cardUrl),
      tools: normalizeTools(card.tools),
      shape: 'sep-2127',
    };
  }
  throw new McpCardFormatError(t('errors.discovery.mcpCardShape'));
}
