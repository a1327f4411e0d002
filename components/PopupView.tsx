import type { AppState } from '@/lib/messaging/protocol';
import { Disclaimer } from './Disclaimer';
import { StatusRegion } from './StatusRegion';

export interface PopupViewProps {
  state?: AppState;
  error?: string;
  optionsUrl: string;
  onOpenSidePanel: () => void;
}

export function PopupView({ state, error, optionsUrl, onOpenSidePanel }: PopupViewProps) {
  const needsKey = state !== undefined && !state.key.set;
  return (
    <main class="stack popup">
      <header class="row">
        <h1>Playbooks</h1>
        <a
          href="#"
          onClick={(event) => {
            event.preventDefault();
            onOpenSidePanel();
          }}
        >
          Open side panel
        </a>
      </header>
      {needsKey ? (
        <p>
          Add your API key in the{' '}
          <a href={optionsUrl} target="_blank" rel="noreferrer">
            options
          </a>{' '}
          to see your playbooks. You can create one at{' '}
          <a href={`${state.settings.serviceUrl}/apikey`} target="_blank" rel="noreferrer">
            {state.settings.serviceUrl}/apikey
          </a>
          .
        </p>
      ) : null}
      <ul aria-label="Playbooks" />
      <StatusRegion state={state} error={error} />
      <Disclaimer />
    </main>
  );
}
