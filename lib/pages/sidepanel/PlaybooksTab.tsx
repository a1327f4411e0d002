import { useEffect, useState } from 'preact/hooks';
import { PlaybookDetail, type ActionKind } from './PlaybookDetail';
import { PlaybookListPanel } from './PlaybookListPanel';
import type { Playbook } from '@/lib/api/schemas';
import { writeSpec } from '@/lib/api/writeOperations';
import type { RecentEvent } from '@/lib/events/feed';
import { sendMessage } from '@/lib/messaging/client';
import type { PlaybookPage } from '@/lib/messaging/protocol';
import { errorParts, userErrorText, type ErrorParts } from '@/lib/pages/errorText';
import { meaningOf } from '@/lib/messaging/errors';
import { log } from '@/lib/log';
import { formatRelative, t } from '@/lib/i18n';
import { useWriteTracker } from './writeTracker';
import { useBacktests, useComparison } from './useBacktests';
import { useCatalysts } from './useCatalysts';
import { ComparisonView } from './ComparisonView';

export interface PlaybooksTabProps {
  /** The playbook to show (from the popup's focus item, the URL or an event link), maybe at one backtest. */
  focus?: { playbookId: string; backtestId?: string; at: number };
  events: RecentEvent[];
  plans: string[];
  /** Brokerage providers the OpenAPI document accepts; the first is offered. */
  providers: string[];
}

function freshnessText(page: PlaybookPage): string | undefined {
  if (page.source !== 'cache') return undefined;
  const ago = formatRelative(page.fetchedAt);
  // The table's words for the failure's code; the worker's own reason names the operation and its retries.
  const why =
    page.stale?.kind === 'failed'
      ? page.stale.code
        ? meaningOf(page.stale.code).message
        : page.stale.reason
      : page.stale
        ? t('sidepanel.list.refreshing')
        : undefined;
  return why ? t('sidepanel.list.cachedWhy', { ago, reason: why }) : t('sidepanel.list.cached', { ago });
}

export function PlaybooksTab({ focus, events, plans, providers }: PlaybooksTabProps) {
  const [list, setList] = useState<{
    items?: Playbook[];
    cursor: string | null;
    hasMore: boolean;
    freshness?: string;
  }>({
    cursor: null,
    hasMore: false,
  });
  const [listError, setListError] = useState<string>();
  const [listLoading, setListLoading] = useState(true);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [refreshing, setRefreshing] = useState(false);
  const [refreshErrors, setRefreshErrors] = useState<Record<string, string>>({});
  const [refreshedCount, setRefreshedCount] = useState<number>();
  const [openId, setOpenId] = useState<string>();
  const [detail, setDetail] = useState<{
    playbook?: Playbook;
    /** When the copy shown was saved, if the service could not be reached (the read model's cache). */
    cached?: { savedAt: number; reason?: string };
    error?: ErrorParts;
    loading: boolean;
  }>({
    loading: false,
  });
  const [compared, setCompared] = useState<string[]>([]);
  const { comparison, compare: compareChosen, pick, close: closeComparison } = useComparison();
  // Read again when a completion for the open playbook arrives, or a run of it was sent.
  const [runsSent, setRunsSent] = useState(0);
  // The backtest whose result the detail shows; none: the newest completed one.
  const [chosenBacktest, setChosenBacktest] = useState<string>();
  const completion = events.find(
    (event) => event.type === 'backtest.completed' && event.playbook_id === openId,
  );
  const backtests = useBacktests(openId, `${completion?.id ?? ''}|${runsSent}`, chosenBacktest);
  const openTitle = detail.playbook?.id === openId ? detail.playbook?.title : undefined;
  const { catalysts, sinceCaptured } = useCatalysts(openId, openTitle);

  const loadList = (cursor?: string) => {
    setListLoading(true);
    sendMessage('listPlaybooks', cursor ? { cursor } : {}).then(
      (page) => {
        setList((current) => ({
          items: cursor ? [...(current.items ?? []), ...page.items] : page.items,
          cursor: page.nextCursor,
          hasMore: page.hasMore && page.nextCursor !== null,
          freshness: freshnessText(page),
        }));
        setListError(undefined);
        setListLoading(false);
      },
      (error: unknown) => {
        setListError(userErrorText(error, 'sidepanel.list-failed'));
        setListLoading(false);
      },
    );
  };

  const loadDetail = (id: string) => {
    setDetail((current) => ({
      playbook: current.playbook?.id === id ? current.playbook : undefined,
      cached: current.playbook?.id === id ? current.cached : undefined,
      loading: true,
    }));
    sendMessage('readPlaybook', { id }).then(
      ({ playbook, source, fetchedAt, stale }) => {
        const reason = stale?.kind === 'failed' ? stale.reason : undefined;
        if (source === 'cache') {
          log.warn('sidepanel.detail-cached', { reason });
          setDetail({ playbook, cached: { savedAt: fetchedAt, reason }, loading: false });
          return;
        }
        setDetail({ playbook, loading: false });
        setList((current) => ({
          ...current,
          items: current.items?.map((item) => (item.id === playbook.id ? playbook : item)),
        }));
      },
      (error: unknown) => {
        const problem = errorParts(error);
        log.warn('sidepanel.detail-failed', { error: problem.details ?? problem.message });
        setDetail((current) => ({ ...current, error: problem, loading: false }));
      },
    );
  };

  const writes = useWriteTracker((operationId: ActionKind, status) => {
    // The outcome is known by re-reading: the playbook changed (or its etag did) once a write was sent.
    if (status === 'sent' && openId && writeSpec(operationId).targetsPlaybook) loadDetail(openId);
    if (status === 'sent' && writeSpec(operationId).startsBacktest) setRunsSent((n) => n + 1);
  });

  const compare = () =>
    compareChosen(
      compared
        .map((id) => list.items?.find((item) => item.id === id))
        .filter((item): item is Playbook => item !== undefined),
    );

  const open = (id: string, backtestId?: string) => {
    setOpenId(id);
    setChosenBacktest(backtestId);
    writes.clear();
    loadDetail(id);
  };

  useEffect(() => loadList(), []);
  useEffect(() => {
    if (focus) open(focus.playbookId, focus.backtestId);
  }, [focus?.playbookId, focus?.at]);

  if (openId) {
    const playbook = detail.playbook?.id === openId ? detail.playbook : undefined;
    const playbookId = openId;
    return (
      <PlaybookDetail
        playbook={playbook}
        loading={detail.loading}
        cached={detail.cached}
        error={detail.error}
        action={writes.action}
        plans={plans}
        catalysts={catalysts}
        sinceCaptured={sinceCaptured}
        backtests={{
          ...backtests,
          chosenId: chosenBacktest,
          onLoadMore: backtests.loadMore,
          onShow: setChosenBacktest,
        }}
        onBack={() => {
          setOpenId(undefined);
          writes.clear();
        }}
        onReload={() => {
          writes.clear();
          loadDetail(openId);
        }}
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

  return (
    <>
      {comparison ? <ComparisonView {...comparison} onClose={closeComparison} onPick={pick} /> : null}
      <PlaybookListPanel
        items={list.items}
        compared={compared}
        onToggleCompare={(id) =>
          setCompared((current) =>
            current.includes(id) ? current.filter((c) => c !== id) : [...current, id],
          )
        }
        onCompare={compare}
        error={listError}
        loading={listLoading}
        hasMore={list.hasMore}
        freshness={list.freshness}
        selected={selected}
        refreshing={refreshing}
        refreshErrors={refreshErrors}
        refreshedCount={refreshedCount}
        onToggle={(id) =>
          setSelected((current) => {
            const next = new Set(current);
            if (next.has(id)) next.delete(id);
            else next.add(id);
            return next;
          })
        }
        onOpen={(id) => open(id)}
        onLoadMore={() => list.cursor && loadList(list.cursor)}
        onRefreshSelected={() => {
          setRefreshing(true);
          sendMessage('refreshPlaybooks', { ids: [...selected] }).then(
            (results) => {
              const errors: Record<string, string> = {};
              const fresh = new Map<string, Playbook>();
              for (const item of results) {
                if (item.playbook) fresh.set(item.id, item.playbook);
                else
                  errors[item.id] = t('sidepanel.list.notRefreshed', {
                    status: item.error ? String(item.error.status) : t('sidepanel.list.error'),
                    message: item.error?.message ?? '',
                  });
              }
              setList((current) => ({ ...current, items: current.items?.map((p) => fresh.get(p.id) ?? p) }));
              setRefreshErrors(errors);
              setRefreshedCount(fresh.size);
              setRefreshing(false);
            },
            (error: unknown) => {
              setListError(userErrorText(error, 'sidepanel.list-failed'));
              setRefreshing(false);
            },
          );
        }}
      />
    </>
  );
}
