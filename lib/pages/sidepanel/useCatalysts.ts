import { useEffect, useRef, useState } from 'preact/hooks';
import type { Performance } from '@/lib/contract/catalyst';
import type { CatalystList } from '@/lib/messaging/protocol';
import { sendMessage } from '@/lib/messaging/client';
import { errorParts, errorText, type ErrorParts } from '@/lib/pages/errorText';
import { saveCalendar } from './calendarFile';

interface Read<T> {
  value?: T;
  loading: boolean;
  error?: ErrorParts;
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
        current.current === playbookId && setState({ loading: false, error: errorParts(error) }),
    );
  }, [playbookId]);
  return state;
}

/** The open playbook's catalysts and performance since capture, and "Add to calendar". */
export function useCatalysts(playbookId: string | undefined, title: string | undefined) {
  const list = useRead<CatalystList>(playbookId, (id) =>
    sendMessage('listPlaybookCatalysts', { playbookId: id }),
  );
  const performance = useRead<Performance>(playbookId, (id) =>
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
    sinceCaptured: { performance: performance.value, loading: performance.loading, error: performance.error },
  };
}
