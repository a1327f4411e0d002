import type { Visibility } from '@/lib/contract/visibility';
import { t, type TextKey } from '@/lib/i18n';

/** One set of visibility words for every page: the popup's, capitalised as a value ("Öffentlich"). */
const VISIBILITY_WORDS: Record<Visibility, TextKey> = {
  private: 'popup.visibility.private',
  unlisted: 'popup.visibility.unlisted',
  public: 'popup.visibility.public',
};

/** A playbook's visibility in the UI language, the same words in the popup, the side panel and its edit form. */
export function visibilityText(visibility: Visibility): string {
  return t(VISIBILITY_WORDS[visibility]);
}
