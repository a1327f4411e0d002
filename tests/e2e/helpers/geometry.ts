import type { Locator, Page, TestInfo } from '@playwright/test';

/** One thing on a page that does not fit its window (kind, and which element, by tag, class and text). */
export interface Misfit {
  kind: 'popup-width' | 'page-overflow' | 'off-screen' | 'clipped' | 'stretched-control' | 'action-hidden';
  what: string;
}

/**
 * What on the page does not fit its window, measured in the page at scroll 0:
 * - page-overflow: the document is wider than the window (the popup would grow, a tab scrolls sideways);
 * - off-screen: a drawn element's box reaches past the window's left or right edge;
 * - clipped: an element cuts its own text (overflow hidden or clip, an ellipsis) and no title on it or
 *   an ancestor gives that whole text;
 * - stretched-control: a checkbox or radio button drawn wider than 32 px (a width meant for text fields).
 * An element inside a box that scrolls sideways on purpose (a wide table's wrapper) is that box's business.
 */
export function misfits(page: Page): Promise<Misfit[]> {
  return page.evaluate(() => {
    const found: { kind: 'page-overflow' | 'off-screen' | 'clipped' | 'stretched-control'; what: string }[] =
      [];
    const root = document.documentElement;
    const width = root.clientWidth;
    const name = (el: Element) => {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
      const cls =
        typeof el.className === 'string' && el.className ? `.${el.className.split(' ').join('.')}` : '';
      return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
    };
    if (root.scrollWidth > width)
      found.push({ kind: 'page-overflow', what: `${root.scrollWidth} > ${width}` });
    const scrollsSideways = (el: Element) => {
      for (let at = el.parentElement; at && at !== document.body; at = at.parentElement) {
        const overflowX = getComputedStyle(at).overflowX;
        if (overflowX === 'auto' || overflowX === 'scroll') return true;
      }
      return false;
    };
    const offScreen = new Set<Element>();
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const rect = el.getBoundingClientRect();
      // Not drawn, or drawn as a 1 px box for screen readers only.
      if (rect.width <= 1 || rect.height <= 1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      // An element past the edge is named once: its descendants are not listed again.
      const past = (rect.right > width + 0.5 || rect.left < -0.5) && !scrollsSideways(el);
      if (past && !(el.parentElement && offScreen.has(el.parentElement)))
        found.push({
          kind: 'off-screen',
          what: `${name(el)} ${Math.round(rect.left)}–${Math.round(rect.right)}`,
        });
      if (past) offScreen.add(el);
      if (
        el instanceof HTMLInputElement &&
        (el.type === 'checkbox' || el.type === 'radio') &&
        rect.width > 32
      )
        found.push({ kind: 'stretched-control', what: `${name(el)} ${Math.round(rect.width)} px wide` });
      const cuts = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      const cut = el.scrollWidth > el.clientWidth + 1 || (cuts && el.scrollHeight > el.clientHeight + 1);
      // A tooltip excuses the cut only if it gives the whole text (not, say, only a failure's reason).
      const tooltip = el.closest('[title]')?.getAttribute('title')?.replace(/\s+/g, ' ') ?? '';
      if (cuts && text !== '' && cut && !tooltip.includes(text) && !el.closest('.visually-hidden'))
        found.push({
          kind: 'clipped',
          what: `${name(el)} ${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight}`,
        });
    }
    return found;
  });
}

/** The actions that must be on screen without scrolling: each one's box inside the window, at scroll 0. */
export async function hiddenActions(page: Page, actions: Locator[]): Promise<Misfit[]> {
  const found: Misfit[] = [];
  const size = await page.evaluate(() => {
    window.scrollTo(0, 0);
    return { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight };
  });
  for (const action of actions) {
    const box = await action.boundingBox();
    const inside =
      box !== null &&
      box.x >= 0 &&
      box.y >= 0 &&
      box.x + box.width <= size.width + 0.5 &&
      box.y + box.height <= size.height + 0.5;
    if (!inside)
      found.push({ kind: 'action-hidden', what: `${action.toString()} at ${JSON.stringify(box)}` });
  }
  return found;
}

/** Chrome's popup limits: it is sized to its page within these (chrome/browser/ui/views/extensions). */
export const POPUP_MAX = { width: 800, height: 600 };
/** The widest the popup may be drawn: at most 400 px. */
export const POPUP_WIDTH_LIMIT = 400;

/**
 * The width Chrome gives the popup: the page's narrowest layout (its min-content width, what Blink
 * reports as the contents' preferred minimum size), between 25 px and 800 px. A line that cannot
 * wrap (white-space: nowrap, a long word) widens the whole popup, even inside an overflow: hidden box.
 */
export async function popupWidth(page: Page): Promise<number> {
  const width = await page.evaluate(() => {
    const root = document.documentElement;
    const before = root.style.width;
    root.style.width = 'min-content';
    const measured = Math.ceil(root.getBoundingClientRect().width);
    root.style.width = before;
    return measured;
  });
  return Math.min(POPUP_MAX.width, Math.max(25, width));
}

/** Saves the window as seen (not the full page: what fits is the question) under test-results. */
export async function shoot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/**
 * How many lines `target`'s text is drawn on: its text boxes grouped by their vertical middle (a
 * padded badge beside plain words sits on the same line).
 */
export function textLines(target: Locator): Promise<number> {
  return target.evaluate((el) => {
    const boxes: { middle: number; height: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects()))
        if (rect.width > 0 && rect.height > 0)
          boxes.push({ middle: rect.top + rect.height / 2, height: rect.height });
    }
    boxes.sort((a, b) => a.middle - b.middle);
    let lines = 0;
    let last = Number.NEGATIVE_INFINITY;
    for (const box of boxes) {
      if (box.middle - last <= box.height / 2) continue;
      lines++;
      last = box.middle;
    }
    return lines;
  });
}
