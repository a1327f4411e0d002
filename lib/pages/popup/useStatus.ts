import { useCallback, useState } from 'preact/hooks';
import { sendMessage } from '@/lib/messaging/client';
import type { AppState, ServiceOverview } from '@/lib/messaging/protocol';
import { errorText } from '@/lib/pages/errorText';
import type { PopupSnapshot } from '@/lib/store/snapshot';

/** The popup's worker state and service status: from its first frame, then the worker's answers. */
export function useStatus(first: PopupSnapshot | undefined) {
  const [state, setState] = useState<AppState | undefined>(first?.state);
  const [stateError, setStateError] = useState<string>();
  const [overview, setOverview] = useState<ServiceOverview | undefined>(first?.overview);
  const [overviewError, setOverviewError] = useState<string>();
  const [overviewLoading, setOverviewLoading] = useState(!first?.overview);

  const loadOverview = useCallback((refresh: boolean) => {
    setOverviewLoading(true);
    sendMessage('getOverview', { refresh }).then(
      (value) => {
        setOverview(value);
        setOverviewError(undefined);
        setOverviewLoading(false);
      },
      (error: unknown) => {
        setOverviewError(errorText(error));
        setOverviewLoading(false);
      },
    );
  }, []);

  /** A snapshot or the worker's answer: its state, and its status when it has one. */
  const showStatus = (snapshot: PopupSnapshot) => {
    setState(snapshot.state);
    setStateError(undefined);
    if (snapshot.overview) {
      setOverview(snapshot.overview);
      setOverviewLoading(false);
    }
  };

  /** The worker could not answer: both say why. */
  const failStatus = (error: unknown) => {
    setStateError(errorText(error));
    setOverviewError(errorText(error));
    setOverviewLoading(false);
  };

  return {
    state,
    stateError,
    overview,
    overviewError,
    overviewLoading,
    loadOverview,
    showStatus,
    failStatus,
  };
}
