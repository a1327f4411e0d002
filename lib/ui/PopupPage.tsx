import { browser } from 'wxt/browser';
import { PopupView } from '@/components/PopupView';
import { log } from '@/lib/log';
import { sendMessage } from '@/lib/messaging/client';
import { openSidePanel } from './sidePanel';
import { useAsync } from './useAsync';

export function PopupPage() {
  const state = useAsync(() => sendMessage('getState', {}));
  return (
    <PopupView
      state={state.value}
      error={state.error}
      optionsUrl={browser.runtime.getURL('/options.html')}
      onOpenSidePanel={() => {
        openSidePanel().catch((error: unknown) => log.warn('sidepanel.open-failed', { error }));
      }}
    />
  );
}
