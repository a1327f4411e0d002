/** The side panel's backtest messages, answered by lib/backtests. */
import type { HandlerRegistry } from '@/lib/messaging';
import { getBacktest, latestBacktest, listBacktests } from '@/lib/backtests/reads';

export function registerBacktestHandlers(registry: HandlerRegistry): void {
  registry.register('listBacktests', ({ playbookId, cursor }) => listBacktests(playbookId, cursor));
  registry.register('getBacktest', ({ id }) => getBacktest(id));
  registry.register('latestBacktests', ({ playbookIds }) => Promise.all(playbookIds.map(latestBacktest)));
}
