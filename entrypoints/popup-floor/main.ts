/**
 * The bench's floor for the popup (bench/browser.ts; development and test builds only, see
 * wxt.config.ts): the popup's own snapshot read, then its first row's title as a bare button. No
 * Preact, no styles, no other row: only what a popup that paints from the database cannot skip
 * (its script's request and that read). The title is in the browser's button font, not the
 * popup's, so this row's paint is a close floor rather than an exact one.
 */
import { snapshotRead } from '../popup/snapshotRead';

void snapshotRead.then((snapshot) => {
  const first = snapshot?.page?.items[0];
  if (!first) return;
  const list = document.createElement('ul');
  list.setAttribute('aria-label', 'Playbooks');
  const row = list.appendChild(document.createElement('li'));
  row.appendChild(document.createElement('button')).textContent = first.title;
  document.getElementById('app')!.append(list);
});
