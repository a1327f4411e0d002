/**
 * Backtest reads: a playbook's list (newest first, cursor pages), one backtest with its equity,
 * a playbook's newest completed one, and the notification's result line. Operations are found by
 * operationId through the one client; answers are checked by lib/contract/backtest.ts and
 * bounded in size before they leave the worker.
 */
import { isApiError } from '@/lib/api';
import { log } from '@/lib/log';
import { serviceClient } from '@/lib/api/service';
import { t } from '@/lib/i18n';
import { backtestResultLine } from './format';
import { backtestIdOf, backtestSchema, MAX_BACKTEST_BYTES, type Backtest } from '@/lib/contract/backtest';
import { HandledError } from '@/lib/contract/handledError';
import type { BacktestPage, LatestBacktest } from '@/lib/contract/wire';

const PAGE_SIZE = 20;
/** How far back the newest completed backtest is looked for. */
const LATEST_MAX_PAGES = 5;
export const BACKTEST_TOO_LARGE = 'backtest.too-large';
export const BACKTEST_MALFORMED = 'backtest.malformed';
export const BACKTEST_OTHER_PLAYBOOK = 'backtest.other-playbook';

function bounded<T>(value: T): T {
  if (JSON.stringify(value).length > MAX_BACKTEST_BYTES)
    throw new HandledError({
      code: BACKTEST_TOO_LARGE,
      message: t('backtests.tooLarge', { size: MAX_BACKTEST_BYTES / 1024 }),
    });
  return value;
}

/**
 * A backtest read for a playbook belongs to it: one that names another playbook is refused, with a
 * message, never shown, compared or notified under this one (a service may answer with anyone's).
 */
function ownedBy(backtest: Backtest, playbookId: string): Backtest {
  if (backtest.playbook_id !== playbookId)
    throw new HandledError({ code: BACKTEST_OTHER_PLAYBOOK, message: t('backtests.otherPlaybookList') });
  return backtest;
}

function checkedItems(items: unknown[], playbookId: string): Backtest[] {
  return items.map((item) => {
    const parsed = backtestSchema.safeParse(item);
    if (!parsed.success)
      throw new HandledError({
        code: BACKTEST_MALFORMED,
        message: t('backtests.unreadableList'),
      });
    return ownedBy(parsed.data, playbookId);
  });
}

export async function listBacktests(playbookId: string, cursor?: string): Promise<BacktestPage> {
  const client = await serviceClient();
  const page = await client.listPage('listBacktests', { playbookId, query: { cursor }, pageSize: PAGE_SIZE });
  const leadsOn = page.stopReason === undefined || page.stopReason === 'missing-cursor';
  return bounded({
    items: checkedItems(page.items, playbookId),
    nextCursor: leadsOn ? page.nextCursor : null,
    hasMore: page.hasMore,
  });
}

export async function getBacktest(id: string): Promise<Backtest> {
  const client = await serviceClient();
  // getBacktest's one path parameter is the backtest id, whatever the document names it.
  return bounded((await client.call('getBacktest', { playbookId: id })).data);
}

export async function latestBacktest(playbookId: string): Promise<LatestBacktest> {
  try {
    const client = await serviceClient();
    for await (const page of client.paginate('listBacktests', {
      playbookId,
      pageSize: PAGE_SIZE,
      maxPages: LATEST_MAX_PAGES,
    })) {
      const completed = checkedItems(page.items, playbookId).find((item) => item.status === 'completed');
      if (completed) return { playbookId, backtest: ownedBy(await getBacktest(completed.id), playbookId) };
    }
    return { playbookId };
  } catch (error) {
    // The API client's message names the operation and its retries: the page says it under Details.
    if (isApiError(error)) return { playbookId, error: error.message, code: `api.${error.kind}` };
    return { playbookId, error: error instanceof HandledError ? error.message : t('backtests.unreadable') };
  }
}

/**
 * The one line a `backtest.completed` notification says, only when the event's backtest is tied to
 * the event's playbook: the backtest it names is read, and must be that backtest of that playbook.
 * Then the event's figures are said, with the benchmark's name. A backtest that cannot be read, or
 * that is another playbook's, gives no line: the notification only names the playbook, and the
 * panel a click opens reads and checks the backtest itself.
 */
export async function backtestNotificationLine(
  data: unknown,
  playbookId: string,
): Promise<string | undefined> {
  const id = backtestIdOf(data);
  if (id === undefined) return undefined;
  const backtest = await getBacktest(id).catch(() => undefined);
  if (backtest?.id !== id || backtest.playbook_id !== playbookId) {
    if (backtest) log.warn('backtests.notified-other-playbook');
    return undefined;
  }
  return backtestResultLine(data, backtest.benchmark);
}
