/**
 * batchGetPlaybooks: ids sent in chunks no larger than the document (and the contract) allow,
 * answered per item in request order. A chunk that fails after its retries marks only its own
 * items failed; an answer that leaves an item out never shifts another item's result onto it.
 */
import { t } from '@/lib/i18n';
import { ApiError, isApiError, type ApiErrorData } from './errors';
import { resolveLocalRef, type OpenApiDocument, type ResolvedOperation } from './operations';
import type { ReadCall } from './pagination';
import { batchResultSchema, type BatchItem, type Playbook, type Problem } from './schemas';
import { parseKnownShape } from './validate';

export type BatchGetItem =
  | { id: string; status: 200; playbook: Playbook }
  | { id: string; status: 403 | 404; error: Problem }
  | { id: string; status: 'failed'; error: ApiErrorData };

export interface BatchDeps {
  call: ReadCall;
  resolve(operationId: string): ResolvedOperation;
  openApi(): OpenApiDocument;
}

/** The contract's largest chunk; a document may declare a smaller `maxItems`, never a larger one. */
const BATCH_CHUNK_MAX = 50;

function batchChunkSize(document: OpenApiDocument, operation: ResolvedOperation): number {
  const schema = resolveLocalRef(document, operation.requestBodySchema) as
    { properties?: { ids?: unknown } } | undefined;
  const ids = resolveLocalRef(document, schema?.properties?.ids) as { maxItems?: unknown } | undefined;
  const declared =
    typeof ids?.maxItems === 'number' && ids.maxItems >= 1 ? Math.floor(ids.maxItems) : BATCH_CHUNK_MAX;
  return Math.min(BATCH_CHUNK_MAX, declared);
}

/** Request order is the contract; match by id when the service's order differs, so no item is misattributed. */
function inRequestOrder(chunk: string[], results: BatchItem[], operationId: string): BatchGetItem[] {
  const remaining: (BatchItem | undefined)[] = [...results];
  return chunk.map((id, index) => {
    const matchIndex = remaining[index]?.id === id ? index : remaining.findIndex((item) => item?.id === id);
    const match = matchIndex >= 0 ? remaining[matchIndex] : undefined;
    if (match) {
      remaining[matchIndex] = undefined;
      return match;
    }
    return {
      id,
      status: 'failed',
      error: new ApiError({
        kind: 'malformed-response',
        operationId,
        message: t('errors.api.batchMissing', { operation: operationId }),
      }).toJSON(),
    };
  });
}

export async function batchGet(
  deps: BatchDeps,
  ids: string[],
  options: { signal?: AbortSignal } = {},
): Promise<BatchGetItem[]> {
  if (ids.length === 0) return [];
  const size = batchChunkSize(deps.openApi(), deps.resolve('batchGetPlaybooks'));
  const out: BatchGetItem[] = [];
  for (let start = 0; start < ids.length; start += size) {
    const chunk = ids.slice(start, start + size);
    try {
      const result = await deps.call('batchGetPlaybooks', { body: { ids: chunk }, signal: options.signal });
      const { results } = parseKnownShape(batchResultSchema, result.data, result.operationId, result.status);
      out.push(...inRequestOrder(chunk, results, result.operationId));
    } catch (error) {
      if (!isApiError(error) || error.kind === 'validation' || error.kind === 'deferred') throw error;
      for (const id of chunk) out.push({ id, status: 'failed', error: error.toJSON() });
    }
  }
  return out;
}
