import { t } from '@/lib/i18n';
import { MessageError } from '@/lib/messaging/client';

/** What a page shows for a failed message: the worker's own message, or a generic line. */
export function errorText(error: unknown): string {
  return error instanceof MessageError ? error.message : t('errors.generic');
}
