import type { BrowserContext, Locator, Page } from '@playwright/test';
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

/** Queues a createPlaybook draft from an extension page and returns its id and the confirm window. */
export async function queueCreate(
  context: BrowserContext,
  probe: Probe,
  body: Record<string, unknown> = NEW_PLAYBOOK,
): Promise<{ draftId: string; confirm: ConfirmPage }> {
  const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  const { draftId } = await probe.value<{ draftId: string }>('requestWrite', {
    operationId: 'createPlaybook',
    body,
  });
  const confirm = new ConfirmPage(await opened);
  return { draftId, confirm };
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
