import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import type { RecordedRequest, Sandbox } from '../../../sandbox/server';
import { ConfirmPage } from '../pages/surfaces';
import type { Probe } from './proof';

export const NEW_PLAYBOOK = {
  title: 'Reliability proof: grid capex thesis',
  thesis: 'Utility capex keeps rising with data-centre load; add below the median forward P/E.',
  visibility: 'private',
  tickers: ['NEE'],
  source: { url: 'https://example.com/research/grid-capex', title: 'Grid capex notes', excerpt: '' },
};

const isConfirmWindow = (page: Page) => page.url().includes('/confirm.html');

/** Runs `act` (a click, a message) and returns the confirm window it opens, its dialog shown. */
export async function confirmWindowFrom(
  context: BrowserContext,
  act: () => Promise<unknown>,
): Promise<ConfirmPage> {
  const opened = context.waitForEvent('page', { predicate: isConfirmWindow });
  await act();
  const confirm = new ConfirmPage(await opened);
  await expect(confirm.dialog).toBeVisible();
  return confirm;
}

/** Runs `act`, then confirms in the window it opens (once Confirm is enabled); returns that window. */
export async function confirmNextWrite(
  context: BrowserContext,
  act: () => Promise<unknown>,
): Promise<ConfirmPage> {
  const confirm = await confirmWindowFrom(context, act);
  await expect(confirm.confirm).toBeEnabled();
  await confirm.confirm.click();
  return confirm;
}

/** Queues a write from an extension page, as the side panel's actions do; returns its draft id and confirm window. */
export async function requestWrite(
  context: BrowserContext,
  probe: Probe,
  request: Record<string, unknown>,
): Promise<{ draftId: string; confirm: ConfirmPage }> {
  let draftId = '';
  const confirm = await confirmWindowFrom(context, async () => {
    ({ draftId } = await probe.value<{ draftId: string }>('requestWrite', request));
  });
  return { draftId, confirm };
}

/** Queues a createPlaybook draft from an extension page and returns its id and the confirm window. */
export function queueCreate(
  context: BrowserContext,
  probe: Probe,
  body: Record<string, unknown> = NEW_PLAYBOOK,
): Promise<{ draftId: string; confirm: ConfirmPage }> {
  return requestWrite(context, probe, { operationId: 'createPlaybook', body });
}

/** Clicks Pause in the side panel's detail and returns the confirm window it opens. */
export function openPause(context: BrowserContext, panel: Page): Promise<ConfirmPage> {
  return confirmWindowFrom(context, () =>
    panel.getByRole('button', { name: 'Pause live automation' }).click(),
  );
}

/** Confirms a pause: stopping automation asks for nothing to be typed, only Confirm once it is armed. */
export async function confirmPause(confirm: ConfirmPage): Promise<void> {
  await expect(confirm.dialog.getByLabel(/to confirm/)).toHaveCount(0);
  await expect(confirm.confirm).toBeEnabled();
  await confirm.confirm.click();
}

/** Types what the window asks for (a live-execution write's name) and confirms. */
export async function typeAndConfirm(confirm: ConfirmPage, typed: string): Promise<void> {
  await confirm.dialog.getByLabel(`Type “${typed}” to confirm`).fill(typed);
  await expect(confirm.confirm).toBeEnabled();
  await confirm.confirm.click();
}

/** The button that sends the draft: "Retry" once a send failed (where the dialog offers it), else "Confirm". */
export function sendButton(confirm: ConfirmPage): Locator {
  return confirm.dialog.getByRole('button', { name: 'Retry' }).or(confirm.confirm).first();
}

export function writesTo(sandbox: Sandbox, suffix = '/playbooks'): RecordedRequest[] {
  return sandbox.requests().filter((r) => r.method === 'POST' && r.path.endsWith(suffix));
}

export function apiRequests(sandbox: Sandbox): RecordedRequest[] {
  return sandbox.requests().filter((r) => r.path.startsWith('/api/'));
}

export async function statusText(page: Page): Promise<string> {
  return (await page.getByRole('status').or(page.getByRole('alert')).first().textContent()) ?? '';
}

/** How many playbooks in the sandbox carry this exact title (a duplicate write would make it 2). */
export function countTitled(sandbox: Sandbox, title: string): number {
  return sandbox.db.listPlaybooks({}, null, 1_000_000).rows.filter((p) => p.title === title).length;
}

/** A title no other test uses, so counts stay exact while tests share one sandbox. */
export function uniqueTitle(label: string): string {
  return `${label} ${Math.random().toString(36).slice(2, 8)}`;
}
