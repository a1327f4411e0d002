import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

const OFFER = 'Turn this into a playbook';

/**
 * The offer lives in a CLOSED shadow root, which Playwright's locators do not pierce (and neither
 * can a page script). The accessibility tree does: find nodes by role and name there, over CDP.
 */
export async function axNodes(page: Page, role: string, name: string) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const { nodes } = await cdp.send('Accessibility.queryAXTree', {
      backendNodeId: root.backendNodeId,
      role,
      accessibleName: name,
    });
    return nodes.filter((node) => !node.ignored);
  } finally {
    await cdp.detach();
  }
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The content box of the first node with that role and name, or undefined when there is none. */
export async function boxOf(page: Page, role: string, name: string): Promise<Box | undefined> {
  const id = (await axNodes(page, role, name))[0]?.backendDOMNodeId;
  if (!id) return undefined;
  const cdp = await page.context().newCDPSession(page);
  try {
    const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: id });
    const [left, top, , , right, bottom] = model.content;
    return { left, top, right, bottom };
  } finally {
    await cdp.detach();
  }
}

/** The centre of the first node with that role and name, or undefined when there is none. */
async function boxCentre(
  page: Page,
  role: string,
  name: string,
): Promise<{ x: number; y: number } | undefined> {
  const box = await boxOf(page, role, name);
  return box && { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
}

/** Clicks a control found by role and name as a user does (a real mouse click at its box). */
export async function clickByRole(page: Page, role: string, name: string): Promise<void> {
  const box = await boxCentre(page, role, name);
  if (!box) throw new Error(`no ${role} "${name}"`);
  await page.mouse.click(box.x, box.y);
}

/** How many offers the page shows (0 when dismissed or not injected). */
export async function offerCount(page: Page): Promise<number> {
  return (await axNodes(page, 'button', OFFER)).length;
}

/** Waits for the offer button to be shown. */
export async function expectOffer(page: Page): Promise<void> {
  await expect.poll(async () => Boolean(await boxCentre(page, 'button', OFFER))).toBe(true);
}

/** Clicks the offer as a user does, once it is shown. */
export async function clickOffer(page: Page): Promise<void> {
  await expectOffer(page);
  await clickByRole(page, 'button', OFFER);
}
