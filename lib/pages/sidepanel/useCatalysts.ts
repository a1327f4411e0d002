import { useEffect, useRef, useState } from 'preact/hooks';
import type { Performance } from '@/lib/contract/catalyst';
import type { CatalystList, Kept } from '@/lib/messaging/protocol';
import { sendMessage } from '@/lib/messaging/client';
import { errorParts, errorText, type ErrorParts } from '@/lib/pages/errorText';
import { saveCalendar } from './calendarFile';
import { isUnreachable } from './SavedCopyMark';

interface Read<T> {
  value?: T;
  loading: boolean;
  error?: ErrorParts;
  /** The service could not be reached and nothing was saved to stand in. */
  unreachable?: boolean;
}

/** One read per open playbook; an answer for a playbook no longer open is dropped. */
function useRead<T>(playbookId: string | undefined, read: (id: string) => Promise<T>): Read<T> {
  const [state, setState] = useState<Read<T>>({ loading: false });
  const current = useRef(playbookId);
  current.current = playbookId;
  useEffect(() => {
    setState({ loading: playbookId !== undefined });
    if (!playbookId) return;
    read(playbookId).then(
      (value) => current.current === playbookId && setState({ value, loading: false }),
      (error: unknown) =>
        current.current === playbookId &&
        setState({ loading: false, error: errorParts(error), unreachable: isUnreachable(error) }),
    );
  }, [playbookId]);
  return state;
}

/** The open playbook's catalysts and performance since capture, and "Add to calendar". */
export function useCatalysts(playbookId: string | undefined, title: string | undefined) {
  const list = useRead<Kept<CatalystList>>(playbookId, (id) =>
    sendMessage('listPlaybookCatalysts', { playbookId: id }),
  );
  const performance = useRead<Kept<Performance>>(playbookId, (id) =>
    sendMessage('getPlaybookPerformance', { playbookId: id }),
  );
  const [saved, setSaved] = useState<string>();
  useEffect(() => setSaved(undefined), [playbookId]);
  return {
    catalysts: {
      items: list.value?.items,
      complete: list.value?.complete ?? true,
      loading: list.loading,
      error: list.error,
      unreachable: list.unreachable,
      savedCopy: list.value?.saved,
      saved,
      onAddToCalendar: () => {
        if (!list.value || title === undefined) return;
        try {
          setSaved(saveCalendar(list.value.items, list.value.apiOrigin, title));
        } catch (error) {
          setSaved(errorText(error));
        }
      },
    },
    sinceCaptured: {
      performance: performance.value,
      loading: performance.loading,
      error: performance.error,
      unreachable: performance.unreachable,
      savedCopy: performance.value?.saved,
    },
  };
}
