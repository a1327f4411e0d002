import { MessageError } from '@/lib/messaging/client';

/** What a page shows for a failed message: the worker's own message, or a generic line. */
export function errorText(error: unknown): string {
  return error instanceof MessageError ? error.message : 'Something went wrong. Try again.';
}
