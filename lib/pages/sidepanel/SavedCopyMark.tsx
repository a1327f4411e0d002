import type { SavedCopy } from '@/lib/contract/wire';
import { MessageError } from '@/lib/messaging/client';
import { meaningOf } from '@/lib/messaging/errors';
import { formatRelative, t } from '@/lib/i18n';

/** A read that failed because the service could not be reached (the one table decides), where a saved copy would stand in. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof MessageError && meaningOf(error.code).cachedStandsIn;
}

/** "Cached · saved 5 minutes ago" over a section shown from the read model's saved copy (the detail header's words). */
export function SavedCopyMark({ saved }: { saved: SavedCopy | undefined }) {
  if (!saved) return null;
  return (
    <p class="saved-copy" role="status">
      <span class="badge warn">{t('panel.cached', { ago: formatRelative(saved.savedAt) })}</span>
    </p>
  );
}
