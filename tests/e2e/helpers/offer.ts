import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The offer's button, by its accessible name (English UI). */
export const OFFER = 'Turn this into a playbook';

/** One CDP call on one page's session: Playwright's, or a raw browser's (tests/e2e/helpers/rawChromium.ts). */
export type CdpSend = (method: string, params?: Record<string, unknown>) => Promise<unknown>;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface AxNode {
  ignored?: boolean;
  backendDOMNodeId?: number;
}

/**
 * The offer lives in a CLOSED shadow root, which Playwright's locators do not pierce (and neither
 * can a page script). The accessibility tree does: find nodes by role and name there, over CDP.
 */
async function axNodesVia(send: CdpSend, role: string, name: string): Promise<AxNode[]> {
  const { root } = (await send('DOM.getDocument', { depth: -1, pierce: true })) as {
    root: { backendNodeId: number };
  };
  const { nodes } = (await send('Accessibility.queryAXTree', {
    backendNodeId: root.backendNodeId,
    role,
    accessibleName: name,
  })) as { nodes: AxNode[] };
  return nodes.filter((node) => !node.ignored);
}

/** The content box of the first node with that role and name, or undefined when there is none. */
async function boxVia(send: CdpSend, role: string, name: string): Promise<Box | undefined> {
  const id = (await axNodesVia(send, role, name))[0]?.backendDOMNodeId;
  if (!id) return undefined;
  const { model } = (await send('DOM.getBoxModel', { backendNodeId: id })) as {
    model: { content: number[] };
  };
  const [left, top, , , right, bottom] = model.content;
  return { left, top, right, bottom };
}

/** Runs `use` with a CDP session of `page`, detached after. */
async function withSession<T>(page: Page, use: (send: CdpSend) => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  try {
    return await use((method, params) => cdp.send(method as 'DOM.getDocument', params));
  } finally {
    await cdp.detach();
  }
}

export function axNodes(page: Page, role: string, name: string): Promise<AxNode[]> {
  return withSession(page, (send) => axNodesVia(send, role, name));
}

export function boxOf(page: Page, role: string, name: string): Promise<Box | undefined> {
  return withSession(page, (send) => boxVia(send, role, name));
}

/** The centre of the first node with that role and name, or undefined when there is none. */
export async function centreVia(
  send: CdpSend,
  role: string,
  name: string,
): Promise<{ x: number; y: number } | undefined> {
  const box = await boxVia(send, role, name);
  return box && { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
}

function boxCentre(page: Page, role: string, name: string): Promise<{ x: number; y: number } | undefined> {
  return withSession(page, (send) => centreVia(send, role, name));
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
