/**
 * The write path's codes: a write's lifecycle codes and the API client's `api.<kind>`, a part of
 * the one closed union (lib/contract/wire.ts). What each means is the one table,
 * lib/messaging/errors.ts; this file names the write path's part of it.
 */
import { API_ERROR_KINDS } from '@/lib/contract/api';
import { LIFECYCLE_CODES, type LifecycleCode } from '@/lib/contract/writes';
import type { ApiErrorCode } from '@/lib/contract/wire';
import {
  apiCode,
  ERRORS,
  meaningOf,
  needsReview,
  type ErrorMeaning,
  type NextStep,
} from '@/lib/messaging/errors';

export type { LifecycleCode } from '@/lib/contract/writes';
export type { NextStep } from '@/lib/messaging/errors';
export { apiCode, meaningOf, needsReview };

export type WriteErrorCode = LifecycleCode | ApiErrorCode;
export type WriteErrorMeaning = ErrorMeaning;
export type { NextStep as WriteNextStep };

/** The write path's rows of the one table. */
export const WRITE_ERRORS: Record<WriteErrorCode, ErrorMeaning> = ERRORS;

const WRITE_CODES: ReadonlySet<string> = new Set([...LIFECYCLE_CODES, ...API_ERROR_KINDS.map(apiCode)]);

export function isWriteErrorCode(value: unknown): value is WriteErrorCode {
  return typeof value === 'string' && WRITE_CODES.has(value);
}

/**
 * The code an unsent write is refused with: the lifecycle code the API client gave its refusal
 * (operation-changed, account-changed: typed by this file's union), or else unconfirmed-write.
 */
export function refusalCode(code: string | undefined): LifecycleCode | 'api.unconfirmed-write' {
  const known = LIFECYCLE_CODES.find((lifecycle) => lifecycle === code);
  return known ?? 'api.unconfirmed-write';
}
