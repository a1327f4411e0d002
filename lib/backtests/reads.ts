/**
 * Backtest reads: a playbook's list (newest first, cursor pages), one backtest with its equity,
 * a playbook's newest completed one, and the notification's result line. Operations are found by
 * operationId through the one client; answers are checked by lib/contract/backtest.ts and
 * bounded in size before they leave the worker.
 */
import { isApiError } from '@/lib/api';
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

function bounded<T>(value: T): T {
  if (JSON.stringify(value).length > MAX_BACKTEST_BYTES)
    throw new HandledError({
      code: BACKTEST_TOO_LARGE,
      message: t('backtests.tooLarge', { size: MAX_BACKTEST_BYTES / 1024 }),
    });
  return value;
}

function checkedItems(items: unknown[]): Backtest[] {
  return items.map((item) => {
    const parsed = backtestSchema.safeParse(item);
    if (!parsed.success)
      throw new HandledError({
        code: BACKTEST_MALFORMED,
        message: t('backtests.unreadableList'),
      });
    return parsed.data;
  });
}

export async function listBacktests(playbookId: string, cursor?: string): Promise<BacktestPage> {
  const client = await serviceClient();
  const page = await client.listPage('listBacktests', { playbookId, query: { cursor }, pageSize: PAGE_SIZE });
  const leadsOn = page.stopReason === undefined || page.stopReason === 'missing-cursor';
  return bounded({
    items: checkedItems(page.items),
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
      const completed = checkedItems(page.items).find((item) => item.status === 'completed');
      if (completed) return { playbookId, backtest: await getBacktest(completed.id) };
    }
    return { playbookId };
  } catch (error) {
    const message =
      error instanceof HandledError || isApiError(error) ? error.message : t('backtests.unreadable');
    return { playbookId, error: message };
  }
}

/** The one line a `backtest.completed` notification says, with the benchmark's name when it can be read. */
export async function backtestNotificationLine(data: unknown): Promise<string | undefined> {
  const id = backtestIdOf(data);
  const benchmark =
    id !== undefined
      ? await getBacktest(id).then(
          (backtest) => backtest.benchmark,
          () => undefined,
        )
      : undefined;
  return backtestResultLine(data, benchmark);
}
