/**
 * Writes: sent one at a time, and only as a confirmed intent (lib/writes owns drafts, their
 * lifecycle and whether an intent still holds). The operation is resolved again from the document
 * at send time, and what would leave (route, contract, key, API URL) is handed to the caller's
 * `beforeSend` just before the request, so the owner decides on what is actually sent; anything
 * it refuses sends nothing. Every retry sends the confirmed bytes under the same Idempotency-Key.
 */
import { t } from '@/lib/i18n';
import type { z } from 'zod';
import { log } from '@/lib/log';
import type { ConfirmedIntent } from '@/lib/contract/writes';
import { fingerprintOfKey } from '@/lib/store/apiKey';
import { ApiError } from './errors';
import type { OpenApiDocument, ResolvedOperation } from './operations';
import { buildOperationUrl } from './urls';
import type { ApiResponse, RequestPlan } from './transport';
import { validateRequestBody } from './validate';
import { canonicalJson, type WriteOperation, type WriteResolution } from './writeOperations';

/** A confirmed intent to send, and the playbook its URL names. */
export interface IntentToSend {
  intent: ConfirmedIntent;
  playbookId?: string;
}

/** What is about to leave, as the document resolves it now: the owner checks it just before. */
export interface Sending {
  resolution: WriteResolution;
  /** The document's contract for the write now (WritePreview.contract). */
  contract: string;
  /** The fingerprint of the key that will be sent; undefined when the operation needs none. */
  keyFingerprint?: string;
  requiresAuth: boolean;
  /** The API URL this client is configured for. */
  apiUrl: string;
}

export interface SendOptions {
  signal?: AbortSignal;
  /** Called just before the request leaves (after any earlier write settled); a throw sends nothing. */
  beforeSend: (sending: Sending) => Promise<void>;
}

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
  /** The configured API URL (handed to beforeSend). */
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
  /** Sends a confirmed intent, and nothing else, once `beforeSend` accepts what would leave. */
  write: (toSend: IntentToSend, options: SendOptions) => Promise<ApiResponse<unknown>>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  function write(toSend: IntentToSend, options: SendOptions): Promise<ApiResponse<unknown>> {
    const run = writeChain.then(
      () => sendOne(toSend, options),
      () => sendOne(toSend, options),
    );
    writeChain = run.catch(() => undefined);
    return run;
  }

  function refuseKey(operationId: string): ApiError {
    return new ApiError({
      kind: 'validation',
      operationId,
      message: t('errors.api.notSent', { operation: operationId, reason: t('errors.api.badIdempotencyKey') }),
    });
  }

  async function sendOne(
    { intent, playbookId }: IntentToSend,
    options: SendOptions,
  ): Promise<ApiResponse<unknown>> {
    const operationId = intent.operationId;
    if (!UUID.test(intent.idempotencyKey)) throw refuseKey(operationId);
    const operation = deps.resolveWriteOperation(operationId);
    deps.refuseForeignServer(operation);
    const url = buildOperationUrl(operation, { playbookId });
    validateRequestBody(
      deps.openApi(),
      operation,
      intent.body === null ? undefined : JSON.parse(intent.body),
    );
    const key = operation.requiresAuth ? await deps.keyFor(operation) : undefined;
    await options.beforeSend({
      resolution: { operationId, method: operation.method, url },
      contract: contractOf(operation),
      keyFingerprint: key === undefined ? undefined : await fingerprintOfKey(key),
      requiresAuth: operation.requiresAuth,
      apiUrl: deps.apiUrl,
    });
    const plan: RequestPlan = {
      operation,
      url,
      // The bytes the user confirmed: every retry sends exactly these under the same key.
      bodyText: intent.body ?? undefined,
      headers: intent.ifMatch === undefined ? {} : { 'If-Match': intent.ifMatch },
      signal: options.signal,
      idempotencyKey: intent.idempotencyKey,
      expect: 'json',
      responseSchema: deps.responseSchemaFor(operationId, operation),
    };
    const result = await deps.send(plan, key);
    log.info('api.write.done', { operationId, status: result.status, replayed: result.idempotentReplayed });
    return result;
  }

  return { resolveWrite, write };
}
