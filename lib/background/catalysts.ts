/** The side panel's catalyst and since-capture messages, answered by lib/catalysts. */
import type { HandlerRegistry } from '@/lib/messaging';
import { catalystsWithinWeek, listPlaybookCatalysts, playbookPerformance } from '@/lib/catalysts/reads';

export function registerCatalystHandlers(registry: HandlerRegistry): void {
  registry.register('listPlaybookCatalysts', ({ playbookId }) => listPlaybookCatalysts(playbookId));
  registry.register('catalystsWithinWeek', ({ tickers }) => catalystsWithinWeek(tickers));
  registry.register('getPlaybookPerformance', ({ playbookId }) => playbookPerformance(playbookId));
}
