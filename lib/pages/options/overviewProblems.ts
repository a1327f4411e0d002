import type { ApiErrorData } from '@/lib/contract/api';
import { MessageError } from '@/lib/messaging/client';
import { apiCode } from '@/lib/messaging/errors';
import { errorParts, type ErrorParts } from '@/lib/pages/errorText';

/**
 * A read the connection test made that failed (getStatus, getAccount), as the page shows any API
 * failure: the one table's words for its kind, the worker's own message under Details.
 */
export function apiErrorParts(error: ApiErrorData): ErrorParts {
  return errorParts(
    new MessageError({
      code: apiCode(error.kind),
      message: error.message,
      details: { operationId: error.operationId },
    }),
  );
}
