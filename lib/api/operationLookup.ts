/**
 * Operation lookup for one client: the OpenAPI document parsed (and checked for ambiguous write
 * routes) once, reads resolved by operationId following `x-replaced-by`, writes resolved as
 * exactly themselves, and every deprecation met on the way noted once and logged.
 */
import { log } from '@/lib/log';
import { DeprecationRecord, type DeprecationNotice } from './deprecations';
import {
  declaredReplacement,
  operationResolver,
  parseOpenApiDocument,
  resolveOperation,
  type OpenApiDocument,
  type OperationResolver,
  type ResolvedOperation,
} from './operations';
import { assertUnambiguousDocument } from './routes';
import { WRITE_OPERATIONS, type WriteOperation } from './writeOperations';

export interface OperationLookupDeps {
  /** The OpenAPI document as fetched by discovery, parsed on first use. */
  openApi: unknown;
  /** Where it came from, for relative `servers` URLs. */
  documentUrl: string;
  now: () => number;
}

export interface OperationLookup {
  openApi: () => OpenApiDocument;
  /** Records a deprecation (from the document or from response headers), logging it the first time. */
  noteDeprecation: (notice: DeprecationNotice) => void;
  /** A read as the document declares it, cached per document (until the next x-sunset). */
  lookupRead: (operationId: string) => ResolvedOperation;
  /** A read: follows x-replaced-by to the successor, and says so. */
  resolve: (operationId: string) => ResolvedOperation;
  /** A write: the operation itself, never its replacement. */
  resolveWriteOperation: (operationId: WriteOperation) => ResolvedOperation;
  /** The successor a list is paged through by name (GraphQL), noted as a followed replacement is. */
  pagedReplacement: (operationId: string) => string | undefined;
  deprecations: () => DeprecationNotice[];
}

/** The deprecations one client met, each logged the first time it is seen. */
function deprecationNotes() {
  const record = new DeprecationRecord();
  return {
    note: (notice: DeprecationNotice): void => {
      if (!record.record(notice)) return;
      log.warn('api.operation.deprecated', {
        operationId: notice.operationId,
        sunsetAt: notice.sunsetAt,
        replacedBy: notice.replacedBy,
      });
    },
    list: () => record.list(),
  };
}

export function createOperationLookup(deps: OperationLookupDeps): OperationLookup {
  const { now, documentUrl } = deps;
  const notes = deprecationNotes();
  const noteDeprecation = notes.note;
  let document: OpenApiDocument | undefined;
  let resolveRead: OperationResolver | undefined;

  function openApi(): OpenApiDocument {
    if (!document) {
      const parsed = parseOpenApiDocument(deps.openApi);
      assertUnambiguousDocument(parsed, WRITE_OPERATIONS);
      document = parsed;
    }
    return document;
  }

  function noteIfDeprecated(operation: ResolvedOperation): void {
    if (!operation.deprecated) return;
    noteDeprecation({
      operationId: operation.operationId,
      deprecated: true,
      sunsetAt: operation.sunset?.getTime(),
      replacedBy: operation.replacedBy,
      lastSeenAt: now(),
    });
  }

  /** Reads resolve once per operation and document (until the next x-sunset), not on every page. */
  function lookupRead(operationId: string): ResolvedOperation {
    resolveRead ??= operationResolver(openApi(), { documentUrl });
    return resolveRead(operationId, now());
  }

  function resolve(operationId: string): ResolvedOperation {
    const operation = lookupRead(operationId);
    if (operation.requestedOperationId !== operation.operationId) {
      noteDeprecation({
        operationId: operation.requestedOperationId,
        deprecated: true,
        replacedBy: operation.operationId,
        lastSeenAt: now(),
      });
    }
    noteIfDeprecated(operation);
    if (operation.warnings.length > 0) {
      log.warn('api.operation.warnings', {
        operationId,
        resolved: operation.operationId,
        warnings: operation.warnings,
      });
    }
    return operation;
  }

  function resolveWriteOperation(operationId: WriteOperation): ResolvedOperation {
    const operation = resolveOperation(openApi(), operationId, now(), { documentUrl, forWrite: true });
    noteIfDeprecated(operation);
    return operation;
  }

  function pagedReplacement(operationId: string): string | undefined {
    const successor = declaredReplacement(openApi(), operationId);
    // Paged through its successor by name: the user is told, as a followed replacement tells.
    if (successor)
      noteDeprecation({ operationId, deprecated: true, replacedBy: successor, lastSeenAt: now() });
    return successor;
  }

  return {
    openApi,
    noteDeprecation,
    lookupRead,
    resolve,
    resolveWriteOperation,
    pagedReplacement,
    deprecations: notes.list,
  };
}
