import { render } from 'preact';
import { localizeDocument, t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { sendMessage } from '@/lib/messaging/client';
import type { PopupOpened } from '@/lib/messaging/protocol';
import { readPopupSnapshotOnce, type PopupSnapshot } from '@/lib/store/snapshot';
import { warmFormats } from './format';
import { PopupPage } from './PopupPage';

/**
 * How long the first frame waits. A database slower than `snapshotMs` gets a first frame without
 * rows (the rows follow when it answers); without a snapshot (first open, right after Save) the
 * worker's answer is awaited `answerMs`. Tests of what the first frame holds pass longer waits,
 * so a slow machine does not turn them into tests of its speed.
 */
export interface FirstFrameWaits {
  snapshotMs: number;
  answerMs: number;
}

export const FIRST_FRAME_WAITS: FirstFrameWaits = { snapshotMs: 150, answerMs: 400 };

function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, ms));
  return Promise.race([promise.catch(() => undefined), timeout]);
}

/**
 * Opens the popup so that its first frame is its final layout: the rows of the snapshot it reads
 * itself (no worker involved), or else the worker's answer when it comes soon. Rendering a shell
 * first would only make the rows push everything below them a moment later.
 */
export async function startPopup(
  container: HTMLElement,
  snapshotRead: Promise<PopupSnapshot | undefined> = readPopupSnapshotOnce(),
  waits: FirstFrameWaits = FIRST_FRAME_WAITS,
): Promise<void> {
  // Marked handled until the page attaches its own handler (which logs a failure).
  snapshotRead.catch(() => undefined);
  // The page speaks the UI language (lang, dir, title) before anything is drawn.
  localizeDocument(document);
  document.title = t('popup.title');
  // The page's thread is idle while the database answers: the first render's costly pieces of
  // setup, the Intl formats of the UI language, are built now.
  warmFormats();
  const snapshot = await within(snapshotRead, waits.snapshotMs);
  let opening: Promise<PopupOpened> | undefined;
  let answered: PopupOpened | undefined;
  if (!snapshot) {
    opening = sendMessage('openPopup', {});
    answered = await within(opening, waits.answerMs);
  }
  try {
    render(
      <PopupPage
        snapshotRead={snapshotRead}
        initialSnapshot={snapshot ?? answered}
        initialIsFresh={answered !== undefined}
        opening={opening}
      />,
      container,
    );
  } catch (error) {
    // A saved record this build cannot draw (an older shape): start again without it, in a fresh
    // element, and let the worker's answer replace the record.
    log.warn('popup.snapshot-unusable', { error });
    const fresh = document.createElement(container.tagName);
    fresh.id = container.id;
    container.replaceWith(fresh);
    render(
      <PopupPage
        snapshotRead={Promise.resolve(undefined)}
        opening={opening ?? sendMessage('openPopup', {})}
      />,
      fresh,
    );
  }
}
