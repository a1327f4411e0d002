import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

const OFFER = 'Turn this into a playbook';

/** The offer sits in a CLOSED shadow root: locators cannot pierce it, the accessibility tree can (CDP). */
async function offerBox(page: Page): Promise<{ x: number; y: number } | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const { nodes } = await cdp.send('Accessibility.queryAXTree', {
      backendNodeId: root.backendNodeId,
      role: 'button',
      accessibleName: OFFER,
    });
    const id = nodes.find((node) => !node.ignored)?.backendDOMNodeId;
    if (!id) return undefined;
    const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: id });
    const [x1, y1, , , x3, y3] = model.content;
    return { x: (x1 + x3) / 2, y: (y1 + y3) / 2 };
  } finally {
    await cdp.detach();
  }
}

/** Waits for the offer button to be shown. */
export async function expectOffer(page: Page): Promise<void> {
  await expect.poll(async () => Boolean(await offerBox(page))).toBe(true);
}

/** Clicks the offer as a user does (a real mouse click at its box). */
export async function clickOffer(page: Page): Promise<void> {
  await expectOffer(page);
  const box = await offerBox(page);
  if (!box) throw new Error('the offer disappeared');
  await page.mouse.click(box.x, box.y);
}
