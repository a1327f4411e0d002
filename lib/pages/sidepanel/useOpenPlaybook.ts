import { useState } from 'preact/hooks';
import type { Playbook } from '@/lib/api/schemas';
import { writeSpec } from '@/lib/api/writeOperations';
import type { RecentEvent } from '@/lib/events/feed';
import { sendMessage } from '@/lib/messaging/client';
import { errorParts, type ErrorParts } from '@/lib/pages/errorText';
import { log } from '@/lib/log';
import type { ActionKind } from './PlaybookDetail';
import { useWriteTracker } from './writeTracker';
import { useBacktests } from './useBacktests';
import { useCatalysts } from './useCatalysts';

export interface DetailState {
  playbook?: Playbook;
  /** When the copy shown was saved, if the service could not be reached (the read model's cache). */
  cached?: { savedAt: number; reason?: string; code?: string };
  error?: ErrorParts;
  loading: boolean;
}

/**
 * The playbook open in the side panel: its copy (fresh, or the one saved when the service is out
 * of reach), its backtests and catalysts, and the writes asked for from it. A fresh copy also
 * replaces its row in the list (`onFresh`).
 */
export function useOpenPlaybook(events: readonly RecentEvent[], onFresh: (playbook: Playbook) => void) {
  const [openId, setOpenId] = useState<string>();
  const [detail, setDetail] = useState<DetailState>({ loading: false });
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

  const load = (id: string) => {
    setDetail((current) => ({
      playbook: current.playbook?.id === id ? current.playbook : undefined,
      cached: current.playbook?.id === id ? current.cached : undefined,
      loading: true,
    }));
    sendMessage('readPlaybook', { id }).then(
      ({ playbook, source, fetchedAt, stale }) => {
        const failed = stale?.kind === 'failed' ? stale : undefined;
        if (source === 'cache') {
          log.warn('sidepanel.detail-cached', { reason: failed?.reason });
          setDetail({
            playbook,
            cached: { savedAt: fetchedAt, reason: failed?.reason, code: failed?.code },
            loading: false,
          });
          return;
        }
        setDetail({ playbook, loading: false });
        onFresh(playbook);
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
    if (status === 'sent' && openId && writeSpec(operationId).targetsPlaybook) load(openId);
    if (status === 'sent' && writeSpec(operationId).startsBacktest) setRunsSent((n) => n + 1);
  });

  return {
    openId,
    /** The copy of the open playbook, once read (not the previous one's). */
    playbook: detail.playbook?.id === openId ? detail.playbook : undefined,
    detail,
    writes,
    backtests: {
      ...backtests,
      chosenId: chosenBacktest,
      onLoadMore: backtests.loadMore,
      onShow: setChosenBacktest,
    },
    catalysts,
    sinceCaptured,
    open: (id: string, backtestId?: string) => {
      setOpenId(id);
      setChosenBacktest(backtestId);
      writes.clear();
      load(id);
    },
    back: () => {
      setOpenId(undefined);
      writes.clear();
    },
    reload: () => {
      writes.clear();
      if (openId) load(openId);
    },
  };
}

export type OpenPlaybook = ReturnType<typeof useOpenPlaybook>;
