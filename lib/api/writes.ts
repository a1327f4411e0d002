/**
 * Writes: sent one at a time, and only as the intent stored in a claimed outbox entry. The entry
 * is read again from the outbox, the operation resolved again from the document, and the key
 * checked against the one confirmed: anything that differs from what the user confirmed means
 * nothing is sent. Every retry sends the confirmed bytes under the same Idempotency-Key.
 */
import { t } from '@/lib/i18n';
import type { z } from 'zod';
import { log } from '@/lib/log';
import type { OutboxEntry, WriteDraft } from '@/lib/contract/outbox';
import { fingerprintOfKey } from '@/lib/store/apiKey';
import { ApiError } from './errors';
import type { OpenApiDocument, ResolvedOperation } from './operations';
import { buildOperationUrl } from './urls';
import type { ApiResponse, RequestPlan } from './transport';
import { validateRequestBody } from './validate';
// Types only: the codes are lib/writes' closed union, checked here by the compiler.
import type { LifecycleCode } from '@/lib/contract/writes';
import {
  canonicalJson,
  describeResolution,
  type WriteOperation,
  type WriteResolution,
} from './writeOperations';

/** An outbox entry lib/writes claimed for sending, that carries the intent the user confirmed. */
export type ClaimedWrite = Pick<OutboxEntry<WriteDraft>, 'id' | 'operationId' | 'draft'>;

/** A write as the document resolves it now, with what the confirm window should warn about. */
export interface WritePreview extends WriteResolution {
  warnings: string[];
  deprecated: boolean;
  /**
   * Canonical JSON of everything the document says about how this write is sent (server URL,
   * route, auth, body schema, deprecation, sunset, successor): a window's token and a confirmed
   * intent bind its digest, so a document changed in any of these needs the window again.
   */
  contract: string;
}

/** What a resolved write's document says about sending it, as canonical JSON (see WritePreview.contract). */
function contractOf(operation: ResolvedOperation): string {
  return canonicalJson({
    operationId: operation.operationId,
    method: operation.method,
    pathTemplate: operation.pathTemplate,
    serverUrl: operation.serverUrl,
    requiresAuth: operation.requiresAuth,
    requestBodySchema: operation.requestBodySchema ?? null,
    requestBodyRequired: operation.requestBodyRequired,
    deprecated: operation.deprecated,
    sunset: operation.sunset?.toISOString() ?? null,
    replacedBy: operation.replacedBy ?? null,
  });
}

export interface WriteDeps {
  /** The configured API URL, which the confirmed intent must name. */
  apiUrl: string;
  openApi(): OpenApiDocument;
  /** The operation itself, never its replacement (a write is sent as confirmed or not at all). */
  resolveWriteOperation(operationId: WriteOperation): ResolvedOperation;
  refuseForeignServer(operation: ResolvedOperation): void;
  /** The key for an operation that requires auth; throws when none is saved. */
  keyFor(operation: ResolvedOperation): Promise<string | undefined>;
  responseSchemaFor(requestedId: string, operation: ResolvedOperation): z.ZodType | undefined;
  /** Sends with retries under the given key (the one checked against the confirmed fingerprint). */
  send(plan: RequestPlan, key: string | undefined): Promise<ApiResponse<unknown>>;
}

export interface Writes {
  /** How a write resolves in the current document: the operation itself, never its replacement. */
  resolveWrite: (operationId: WriteOperation, playbookId?: string) => WritePreview;
  /** Sends the confirmed intent of a claimed outbox entry, and nothing else. */
  write: (entry: ClaimedWrite, options?: { signal?: AbortSignal }) => Promise<ApiResponse<unknown>>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ACCOUNT_CHANGED: LifecycleCode = 'account-changed';
const OPERATION_CHANGED: LifecycleCode = 'operation-changed';

function notSent(operationId: string, reason: string, code?: LifecycleCode): ApiError {
  log.warn('api.write.unconfirmed', { operationId });
  return new ApiError({
    kind: 'unconfirmed-write',
    operationId,
    code,
    message: t('errors.api.notSent', { operation: operationId, reason }),
  });
}

export function createWrites(deps: WriteDeps): Writes {
  let writeChain: Promise<unknown> = Promise.resolve();

  function resolveWrite(operationId: WriteOperation, playbookId?: string): WritePreview {
    const operation = deps.resolveWriteOperation(operationId);
    deps.refuseForeignServer(operation);
    return {
      operationId,
      method: operation.method,
      url: buildOperationUrl(operation, { playbookId }),
      warnings: operation.warnings,
      deprecated: operation.deprecated,
      contract: contractOf(operation),
    };
  }

  /** Writes never overlap: each is checked and sent after the one before it settled, in call order. */
  function write(
    claimed: ClaimedWrite,
    options: { signal?: AbortSignal } = {},
  ): Promise<ApiResponse<unknown>> {
    const run = writeChain.then(
      () => sendOne(claimed, options),
      () => sendOne(claimed, options),
    );
    writeChain = run.catch(() => undefined);
    return run;
  }

  async function sendOne(
    claimed: ClaimedWrite,
    options: { signal?: AbortSignal },
  ): Promise<ApiResponse<unknown>> {
    const operationId = claimed.operationId;
    const stored = claimed;
    const intent = stored.draft.confirmed;
    if (!intent || intent.operationId !== stored.operationId) {
      throw notSent(operationId, t('errors.api.notClaimed'));
    }
    if (intent.apiUrl !== deps.apiUrl) {
      throw notSent(operationId, t('errors.api.apiUrlChanged'), ACCOUNT_CHANGED);
    }
    if (!UUID.test(intent.idempotencyKey)) {
      throw new ApiError({
        kind: 'validation',
        operationId,
        message: t('errors.api.notSent', {
          operation: operationId,
          reason: t('errors.api.badIdempotencyKey'),
        }),
      });
    }
    const operation = deps.resolveWriteOperation(intent.operationId);
    const url = buildOperationUrl(operation, {
      playbookId: stored.draft.playbookId ?? stored.draft.path?.id,
    });
    const now: WriteResolution = { operationId: intent.operationId, method: operation.method, url };
    if (now.method !== intent.method || now.url !== intent.url) {
      log.warn('api.write.operation-changed', { operationId, was: intent.method, now: now.method });
      throw new ApiError({
        kind: 'unconfirmed-write',
        operationId,
        code: OPERATION_CHANGED,
        message: t('errors.write.operationChangedFrom', {
          was: describeResolution(intent),
          now: describeResolution(now),
        }),
      });
    }
    const body: unknown = intent.body === null ? undefined : JSON.parse(intent.body);
    if (canonicalJson(stored.draft.body ?? null) !== (intent.body ?? 'null')) {
      throw notSent(operationId, t('errors.api.bodyChanged'));
    }
    validateRequestBody(deps.openApi(), operation, body);
    let key: string | undefined;
    if (operation.requiresAuth) {
      key = await deps.keyFor(operation);
      if (key !== undefined && (await fingerprintOfKey(key)) !== intent.keyFingerprint) {
        throw notSent(operationId, t('errors.api.keyChanged'), ACCOUNT_CHANGED);
      }
    }
    const headers: Record<string, string> = {};
    if (intent.ifMatch !== undefined) headers['If-Match'] = intent.ifMatch;
    const plan: RequestPlan = {
      operation,
      url,
      // The bytes the user confirmed: every retry sends exactly these under the same key.
      bodyText: intent.body ?? undefined,
      headers,
      signal: options.signal,
      idempotencyKey: intent.idempotencyKey,
      expect: 'json',
      responseSchema: deps.responseSchemaFor(intent.operationId, operation),
    };
    const result = await deps.send(plan, key);
    log.info('api.write.done', {
      operationId: operation.operationId,
      status: result.status,
      replayed: result.idempotentReplayed,
    });
    return result;
  }

  return { resolveWrite, write };
}
