import type { PlaybookPage } from '@/lib/messaging/protocol';
import { sendMessage } from '@/lib/messaging/client';
import { log } from '@/lib/log';
import { readCachedViewOnce, type ReadView } from '@/lib/store/snapshot';
import type { ListScope, VisibilityFilter } from './PopupView';

/** The read model's view for what the popup shows (without a key, the public library). */
export function viewOf(scope: ListScope, visibility: VisibilityFilter): ReadView {
  return scope === 'public' || visibility === 'all' ? { scope } : { scope, visibility };
}

/** A copy from the read model's cache says so ("Cached … · Refreshing…") until the fresh answer replaces it. */
export function savedCopy(page: PlaybookPage): PlaybookPage {
  return { ...page, source: 'cache', stale: { kind: 'refreshing' } };
}

/**
 * A view the popup switches to, the way its first frame opens: the read model's cached first page
 * (read from the database by the page itself, for the service and key `binding` the popup's
 * record was read for) is handed to `cached` unless the answer came first; the one `readView`
 * message brings the fresh page (or the cached one, marked failed, when the service is down).
 * With `cursor` ("Load more") there is no cached copy: the message alone answers.
 */
export function askView(
  view: ReadView,
  options: { binding?: string; cursor?: string; cached?: (page: PlaybookPage) => void },
): Promise<PlaybookPage> {
  const { binding, cursor, cached } = options;
  let answered = false;
  const answer = sendMessage('readView', cursor ? { ...view, cursor } : view);
  if (!cursor && binding && cached)
    readCachedViewOnce(view, binding).then(
      (page) => {
        if (page && !answered) cached(savedCopy(page));
      },
      (error: unknown) => log.warn('popup.view-cache-failed', { error }),
    );
  const done = () => {
    answered = true;
  };
  answer.then(done, done);
  return answer;
}
