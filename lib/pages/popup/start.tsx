import { render } from 'preact';
import { localizeDocument, t } from '@/lib/i18n';
import { log } from '@/lib/log';
import { sendMessage } from '@/lib/messaging/client';
import type { PopupOpened } from '@/lib/messaging/protocol';
import { afterFirstPaint } from '@/lib/pages/firstPaint';
import { readPopupSnapshotOnce, type PopupSnapshot } from '@/lib/store/snapshot';
import { warmFormats } from './format';
import { PopupPage, type PopupOpening } from './PopupPage';
import { savedCopy } from './views';

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
 * The revalidation of a popup painted from its snapshot: sent once that frame is on screen, or as
 * the popup closes if it closes first (a frame never comes then), so a popup opened and closed
 * at once still has the worker refresh the snapshot the next one paints from.
 */
function revalidateAfterPaint(): Promise<PopupOpened> {
  return new Promise((resolve, reject) => {
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      removeEventListener('pagehide', send);
      sendMessage('openPopup', {}).then(resolve, reject);
    };
    addEventListener('pagehide', send);
    afterFirstPaint().then(send, send);
  });
}

/** A saved copy is shown as one ("Cached … · Refreshing…") until the worker's answer replaces it. */
function asSaved(snapshot: PopupSnapshot | undefined): PopupSnapshot | undefined {
  return snapshot?.page ? { ...snapshot, page: savedCopy(snapshot.page) } : snapshot;
}

/**
 * The one decision of what the popup's first frame shows, made before it is drawn: the saved
 * snapshot when the database answers within `snapshotMs` (the worker's answer follows that
 * frame), else the worker's answer when it comes within `answerMs`, else nothing yet (whichever
 * of the two answers first fills it in).
 */
export async function popupOpening(
  snapshotRead: Promise<PopupSnapshot | undefined>,
  waits: FirstFrameWaits,
): Promise<PopupOpening> {
  const snapshot = await within(snapshotRead, waits.snapshotMs);
  if (snapshot) return { first: asSaved(snapshot), fresh: false, answer: revalidateAfterPaint() };
  const answer = sendMessage('openPopup', {});
  const answered = await within(answer, waits.answerMs);
  if (answered) return { first: answered, fresh: true, answer };
  return { fresh: false, answer, late: snapshotRead.then(asSaved) };
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
  const opening = await popupOpening(snapshotRead, waits);
  try {
    render(<PopupPage opening={opening} />, container);
  } catch (error) {
    // A saved record this build cannot draw (an older shape): start again without it, in a fresh
    // element, and let the worker's answer replace the record.
    log.warn('popup.snapshot-unusable', { error });
    const fresh = document.createElement(container.tagName);
    fresh.id = container.id;
    container.replaceWith(fresh);
    render(<PopupPage opening={{ fresh: false, answer: opening.answer }} />, fresh);
  }
}
