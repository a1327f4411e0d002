/**
 * A discovery run: every document of the contract's recommended order, then the others, fetched
 * one after another (so the order is observable and shown), each validated and turned into
 * render-ready data. A failing step is recorded and the run goes on. The report is plain JSON: it
 * crosses extension messaging and is stored.
 */
import { t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { parseAgentCard } from './agentCard';
import { idbDocumentCache, type DocumentCache } from './cache';
import { acceptHeaderFor, DISCOVERY_DOCUMENTS, skillStepId, type DiscoveryDocument } from './documents';
import {
  DEFAULT_MAX_DOCUMENT_BYTES,
  fetchDiscoveryDocument,
  type FetchedDocument,
  type FetchLike,
} from './fetchDocument';
import { parseLlmsTxt } from './llmsTxt';
import { parseMcpCard } from './mcpCard';
import { checkOpenApiDocument, type OpenApiSummary } from './openapi';
import { parseSkillMarkdown, parseSkillsIndex, type SkillIndexEntry } from './skills';
import { documentUrlFor, normalizeBaseUrl } from './urls';
import { verifySkillDigest } from './verify';
import type {
  DiscoveryDocuments,
  DiscoveryReport,
  DiscoverySkill,
  DiscoveryStep,
  DiscoveryStepStatus,
} from './report';

export interface DiscoveryDeps {
  fetch?: FetchLike;
  now?: () => number;
  signal?: AbortSignal;
  cache?: DocumentCache;
  maxBytes?: number;
}

export interface DiscoveryOptions extends DiscoveryDeps {
  baseUrl: string;
}

// Bound so a hostile index cannot turn one run into hundreds of requests.
const MAX_SKILLS = 50;

/**
 * What one report may hold of Markdown (skill bodies and documents): it is stored, sent over
 * messaging and lexed when the side panel opens, so 50 skills of 1 MB must not make it 65 MB.
 */
export const REPORT_LIMITS = { maxSkillBodyChars: 200_000, maxMarkdownChars: 2_000_000 } as const;

const kilobytes = (chars: number) => t('errors.discovery.kilobytes', { size: Math.ceil(chars / 1_000) });

/** Charges `text` to the run's Markdown budget; the sentence to show when it does not fit. */
function overReportBudget(context: RunContext, text: string): string | undefined {
  if (context.markdownChars + text.length > REPORT_LIMITS.maxMarkdownChars)
    return t('errors.discovery.reportFull', { limit: kilobytes(REPORT_LIMITS.maxMarkdownChars) });
  context.markdownChars += text.length;
  return undefined;
}

const defaultFetch: FetchLike = (input, init) => fetch(input, init);

interface RunContext {
  baseUrl: string;
  fetch: FetchLike;
  now: () => number;
  cache: DocumentCache;
  signal?: AbortSignal;
  maxBytes: number;
  steps: DiscoveryStep[];
  documents: DiscoveryDocuments;
  /** Where the MCP card came from, so the endpoint step can say the same. */
  mcpCardSource: 'network' | 'cache';
  /** Markdown characters kept in the report so far (REPORT_LIMITS). */
  markdownChars: number;
}

function message(error: unknown): string {
  if (error instanceof SyntaxError) return t('errors.discovery.malformedJson');
  if (error instanceof Error && error.name === 'ZodError') return t('errors.discovery.wrongShape');
  return error instanceof Error ? error.message.slice(0, 300) : t('errors.discovery.unreadableDocument');
}

function record(context: RunContext, step: DiscoveryStep): void {
  context.steps.push(step);
  const fields = {
    id: step.id,
    url: step.url,
    status: step.status,
    httpStatus: step.httpStatus,
    ms: step.ms,
    bytes: step.bytes,
    source: step.source,
  };
  if (step.status === 'failed' || step.status === 'invalid')
    log.warn('discovery.step', { ...fields, error: step.error });
  else log.info('discovery.step', fields);
}

/** Fetches one document, lets `read` interpret it, and records the step either way. */
async function runStep(
  context: RunContext,
  step: { id: string; url: string; title: string; accept: string },
  read: (document: FetchedDocument & { body: string }) => void | Promise<void>,
): Promise<FetchedDocument> {
  if (context.signal?.aborted) throw context.signal.reason;
  const started = context.now();
  const fetched = await fetchDiscoveryDocument(step.url, step.accept, {
    fetch: context.fetch,
    now: context.now,
    cache: context.cache,
    signal: context.signal,
    maxBytes: context.maxBytes,
  });
  let status = fetched.status;
  let error = fetched.error;
  if (fetched.body !== null) {
    try {
      await read(fetched as FetchedDocument & { body: string });
    } catch (readError) {
      status = 'invalid';
      error = message(readError);
    }
  }
  record(context, {
    id: step.id,
    url: step.url,
    title: step.title,
    status,
    ...(fetched.httpStatus !== undefined ? { httpStatus: fetched.httpStatus } : {}),
    ms: Math.max(0, Math.round(context.now() - started)),
    bytes: fetched.size,
    source: fetched.source,
    ...(error ? { error } : {}),
  });
  return fetched;
}

async function runSkill(context: RunContext, entry: SkillIndexEntry): Promise<void> {
  const id = skillStepId(entry.name);
  const title = t('errors.documentTitles.skill', { name: entry.name });
  const skill: DiscoverySkill = {
    name: entry.name,
    description: entry.description,
    url: entry.url,
    verification: 'missing',
  };
  context.documents.skills.push(skill);

  const preliminary = await verifySkillDigest(new Uint8Array(), entry.digest);
  if (preliminary === 'invalid-digest') {
    // Without a usable digest the content could never be trusted, so it is not even fetched.
    skill.verification = 'invalid-digest';
    skill.error = t('errors.discovery.noDigest');
    record(context, {
      id,
      url: entry.url,
      title,
      status: 'invalid',
      ms: 0,
      bytes: 0,
      source: 'network',
      error: skill.error,
    });
    return;
  }

  await runStep(
    context,
    { id, url: entry.url, title, accept: 'text/markdown, text/plain;q=0.9, */*;q=0.1' },
    async (document) => {
      skill.verification = await verifySkillDigest(document.bytes, entry.digest);
      if (skill.verification !== 'verified') {
        skill.error = t('errors.discovery.digestMismatch');
        throw new Error(skill.error);
      }
      const parsed = parseSkillMarkdown(document.body);
      skill.description = parsed.description || entry.description;
      if (parsed.body.length > REPORT_LIMITS.maxSkillBodyChars) {
        skill.error = t('errors.discovery.skillTooLong', {
          size: kilobytes(parsed.body.length),
          limit: kilobytes(REPORT_LIMITS.maxSkillBodyChars),
        });
        return;
      }
      const refused = overReportBudget(context, parsed.body);
      if (refused) skill.error = refused;
      else skill.body = { text: parsed.body, baseUrl: document.baseUrl };
    },
  ).then((fetched) => {
    if (fetched.body === null) {
      skill.verification = 'missing';
      skill.error = fetched.error ?? t('errors.discovery.skillUnavailable');
    }
  });
}

function readJson(body: string): unknown {
  return JSON.parse(body) as unknown;
}

async function runDocument(context: RunContext, definition: DiscoveryDocument): Promise<void> {
  const url = documentUrlFor(context.baseUrl, definition.path);
  const step = {
    id: definition.id,
    url,
    title: definition.title,
    accept: acceptHeaderFor(definition.format),
  };
  const { documents } = context;

  switch (definition.format) {
    case 'llms-txt':
      await runStep(context, step, (doc) => {
        const parsed = parseLlmsTxt(doc.body, doc.baseUrl);
        if (definition.id === 'llms') documents.llms = parsed;
        else if (definition.id === 'llms-full') documents.llmsFull = parsed;
        else documents.developersLlms = parsed;
      });
      return;
    case 'html':
      // Shown as reachable or not; HTML is never parsed or rendered by the extension.
      await runStep(context, step, () => undefined);
      return;
    case 'openapi':
      await runStep(context, step, (doc) => {
        const json = readJson(doc.body);
        documents.openapiSummary = checkOpenApiDocument(json, doc.baseUrl);
        documents.openapi = json;
      });
      return;
    // Stored as fetched: the side panel reads the plans out of it (pricingSource).
    case 'pricing':
    case 'markdown':
      await runStep(context, step, (doc) => {
        const refused = overReportBudget(context, doc.body);
        if (refused) throw new Error(refused);
        documents.markdownSources[definition.path] = { text: doc.body, baseUrl: doc.baseUrl };
      });
      return;
    case 'mcp-card': {
      const fetched = await runStep(context, step, (doc) => {
        documents.mcpCard = parseMcpCard(readJson(doc.body), doc.baseUrl);
      });
      context.mcpCardSource = fetched.source;
      return;
    }
    case 'mcp-endpoint': {
      const card = documents.mcpCard;
      if (card) documents.mcpEndpoint = card.endpoint;
      record(context, {
        id: definition.id,
        url: documents.mcpEndpoint,
        title: definition.title,
        status: card ? 'ok' : 'failed',
        ms: 0,
        bytes: 0,
        source: context.mcpCardSource,
        ...(card ? {} : { error: t('errors.discovery.noMcpCard') }),
      });
      return;
    }
    case 'skills-index': {
      let entries: SkillIndexEntry[] = [];
      await runStep(context, step, (doc) => {
        entries = parseSkillsIndex(readJson(doc.body), doc.baseUrl).skills;
      });
      for (const entry of entries.slice(0, MAX_SKILLS)) await runSkill(context, entry);
      return;
    }
    case 'agent-card':
      await runStep(context, step, (doc) => {
        documents.agentCard = parseAgentCard(readJson(doc.body), doc.baseUrl);
      });
      return;
  }
}

/** Runs discovery against `baseUrl` and returns the report; it throws only when `signal` aborts. */
export async function runDiscovery(options: DiscoveryOptions): Promise<DiscoveryReport> {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const now = options.now ?? Date.now;
  const context: RunContext = {
    baseUrl,
    fetch: options.fetch ?? defaultFetch,
    now,
    cache: options.cache ?? idbDocumentCache,
    signal: options.signal,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES,
    steps: [],
    mcpCardSource: 'network',
    markdownChars: 0,
    documents: {
      llms: null,
      llmsFull: null,
      developersLlms: null,
      agentCard: null,
      mcpCard: null,
      mcpEndpoint: documentUrlFor(baseUrl, '/mcp'),
      skills: [],
      markdownSources: {},
    },
  };
  const startedAt = new Date(now()).toISOString();
  log.info('discovery.start', { baseUrl });
  for (const definition of DISCOVERY_DOCUMENTS) await runDocument(context, definition);
  const finishedAt = new Date(now()).toISOString();
  log.info('discovery.finish', {
    baseUrl,
    steps: context.steps.length,
    failed: context.steps.filter((s) => s.status === 'failed' || s.status === 'invalid').length,
  });
  return { baseUrl, startedAt, finishedAt, steps: context.steps, documents: context.documents };
}

export interface OpenApiDocument {
  document: unknown;
  summary: OpenApiSummary;
  url: string;
  source: 'network' | 'cache';
  /** True when the network failed and the cached copy was served. */
  stale: boolean;
}

export interface OpenApiFetchDeps extends DiscoveryDeps {
  /** A cached copy younger than this is used without a request (default one minute). */
  maxAgeMs?: number;
}

export class DiscoveryDocumentError extends Error {
  override name = 'DiscoveryDocumentError';
  constructor(
    message: string,
    readonly url: string,
    readonly status: DiscoveryStepStatus,
  ) {
    super(message);
  }
}

/** The OpenAPI document for an API call that needs it outside a run, through the same cache. */
export async function getOpenApiDocument(
  baseUrl: string,
  deps: OpenApiFetchDeps = {},
): Promise<OpenApiDocument> {
  const url = documentUrlFor(baseUrl, '/openapi.json');
  const cache = deps.cache ?? idbDocumentCache;
  const now = deps.now ?? Date.now;
  const maxAgeMs = deps.maxAgeMs ?? 60_000;
  const read = (body: string, documentUrl: string) => {
    const document = readJson(body);
    return { document, summary: checkOpenApiDocument(document, documentUrl) };
  };

  const cached = await cache.get(url).catch(() => undefined);
  if (cached && now() - cached.fetchedAt < maxAgeMs) {
    try {
      return { ...read(cached.body, url), url, source: 'cache', stale: false };
    } catch {
      // A cached copy that no longer reads is refetched below.
    }
  }

  const fetched = await fetchDiscoveryDocument(url, acceptHeaderFor('openapi'), {
    fetch: deps.fetch ?? defaultFetch,
    now,
    cache,
    signal: deps.signal,
    maxBytes: deps.maxBytes,
  });
  if (fetched.body === null)
    throw new DiscoveryDocumentError(
      fetched.error ?? t('errors.discovery.openApiUnavailable'),
      url,
      fetched.status,
    );
  try {
    return {
      ...read(fetched.body, fetched.baseUrl),
      url,
      source: fetched.source,
      stale: fetched.status === 'stale',
    };
  } catch (error) {
    throw new DiscoveryDocumentError(message(error), url, 'invalid');
  }
}
