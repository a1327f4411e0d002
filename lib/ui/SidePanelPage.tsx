import { SidePanelView } from '@/components/SidePanelView';
import { StatusRegion } from '@/components/StatusRegion';
import { sendMessage } from '@/lib/messaging/client';
import { useAsync } from './useAsync';

export function SidePanelPage() {
  const state = useAsync(() => sendMessage('getState', {}));
  return (
    <SidePanelView
      panels={{
        playbooks: <StatusRegion state={state.value} error={state.error} />,
        discovery: <p class="hint">The service's discovery documents appear here.</p>,
        events: <p class="hint">Live events from the service appear here.</p>,
      }}
    />
  );
}
