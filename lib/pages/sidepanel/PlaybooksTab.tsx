import { useEffect } from 'preact/hooks';
import { PlaybookDetail } from './PlaybookDetail';
import { PlaybookListPanel } from './PlaybookListPanel';
import type { Playbook } from '@/lib/api/schemas';
import type { RecentEvent } from '@/lib/events/feed';
import { usePlaybookChoice, usePlaybookList } from './usePlaybookList';
import { useOpenPlaybook, type OpenPlaybook } from './useOpenPlaybook';
import { useComparison } from './useComparison';
import { ComparisonView } from './ComparisonView';

export interface PlaybooksTabProps {
  /** The playbook to show (from the popup's focus item, the URL or an event link), maybe at one backtest. */
  focus?: { playbookId: string; backtestId?: string; at: number };
  events: RecentEvent[];
  plans: string[];
  /** Brokerage providers the OpenAPI document accepts; the first is offered. */
  providers: string[];
}

/** The open playbook's detail, its actions sent as write requests (the confirm window sends them). */
function OpenPlaybookDetail({
  view,
  plans,
  providers,
}: {
  view: OpenPlaybook;
  plans: string[];
  providers: string[];
}) {
  const { playbook, detail, writes } = view;
  const playbookId = view.openId!;
  return (
    <PlaybookDetail
      playbook={playbook}
      loading={detail.loading}
      cached={detail.cached}
      error={detail.error}
      action={writes.action}
      plans={plans}
      catalysts={view.catalysts}
      sinceCaptured={view.sinceCaptured}
      backtests={view.backtests}
      onBack={view.back}
      onReload={view.reload}
      onEdit={(fields) =>
        playbook &&
        writes.request({
          operationId: 'updatePlaybook',
          playbookId,
          body: { ...fields },
          ifMatch: playbook.etag,
        })
      }
      onBacktest={(range) => writes.request({ operationId: 'runBacktest', playbookId, body: { ...range } })}
      onActivate={() => writes.request({ operationId: 'activatePlaybook', playbookId })}
      onPause={() => writes.request({ operationId: 'pausePlaybook', playbookId })}
      onLinkBrokerage={() =>
        providers[0] &&
        writes.request({ operationId: 'createBrokerageLink', body: { provider: providers[0] } })
      }
      onUpgrade={(plan) => writes.request({ operationId: 'createCheckoutSession', body: { plan } })}
    />
  );
}

export function PlaybooksTab({ focus, events, plans, providers }: PlaybooksTabProps) {
  const list = usePlaybookList();
  const choice = usePlaybookChoice();
  const { comparison, compare, pick, older, close: closeComparison } = useComparison();
  const view = useOpenPlaybook(events, (playbook) => list.replace(new Map([[playbook.id, playbook]])));

  useEffect(() => {
    if (focus) view.open(focus.playbookId, focus.backtestId);
  }, [focus?.playbookId, focus?.at]);

  if (view.openId) return <OpenPlaybookDetail view={view} plans={plans} providers={providers} />;
  return (
    <>
      {comparison ? (
        <ComparisonView {...comparison} onClose={closeComparison} onPick={pick} onOlder={older} />
      ) : null}
      <PlaybookListPanel
        items={list.items}
        error={list.error}
        loading={list.loading}
        hasMore={list.hasMore}
        freshness={list.freshness}
        check={list.check}
        choosing={choice.choosing}
        chosen={choice.chosen}
        onChoosing={choice.setChoosing}
        onToggle={choice.toggle}
        onOpen={(id) => view.open(id)}
        onLoadMore={list.loadMore}
        onRetry={list.retry}
        onCheck={() => list.checkForUpdates(choice.chosen)}
        onCompare={() =>
          compare(
            choice.chosen
              .map((id) => list.items?.find((item) => item.id === id))
              .filter((item): item is Playbook => item !== undefined),
          )
        }
      />
    </>
  );
}
