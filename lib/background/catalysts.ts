/** The side panel's catalyst and since-capture messages, answered by lib/catalysts. */
import type { HandlerRegistry } from '@/lib/messaging';
import { keptRead } from './readModel';
import { catalystsWithinWeek, listPlaybookCatalysts, playbookPerformance } from '@/lib/catalysts/reads';

export function registerCatalystHandlers(registry: HandlerRegistry): void {
  // The detail's reads: the read model keeps their last good answer for when the service is out of reach.
  registry.register('listPlaybookCatalysts', ({ playbookId }) =>
    keptRead(`catalysts|${playbookId}`, () => listPlaybookCatalysts(playbookId)),
  );
  registry.register('catalystsWithinWeek', ({ tickers }) => catalystsWithinWeek(tickers));
  registry.register('getPlaybookPerformance', ({ playbookId }) =>
    keptRead(`performance|${playbookId}`, () => playbookPerformance(playbookId)),
  );
}
