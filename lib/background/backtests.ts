/** The side panel's backtest messages, answered by lib/backtests. */
import type { HandlerRegistry } from '@/lib/messaging';
import { keptRead } from './readModel';
import { getBacktest, latestBacktest, listBacktests } from '@/lib/backtests/reads';

export function registerBacktestHandlers(registry: HandlerRegistry): void {
  // The first page and the newest result are kept by the read model for when the service is out of reach.
  registry.register('listBacktests', ({ playbookId, cursor }) =>
    cursor
      ? listBacktests(playbookId, cursor)
      : keptRead(`backtests|${playbookId}`, () => listBacktests(playbookId)),
  );
  registry.register('getBacktest', ({ id }) => getBacktest(id));
  registry.register('latestBacktests', ({ playbookIds }) =>
    Promise.all(
      playbookIds.map((id) =>
        keptRead(
          `latest|${id}`,
          () => latestBacktest(id),
          (answer) => (answer.error ? (answer.code ?? 'internal') : undefined),
        ),
      ),
    ),
  );
}
