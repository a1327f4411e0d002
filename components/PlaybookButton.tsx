export interface PlaybookButtonProps {
  busy?: boolean;
  message?: string;
  tickers: string[];
  onActivate: () => void;
  onDismiss: () => void;
}

/** The floating offer on finance pages. Rendered inside a shadow root; page text only as text. */
export function PlaybookButton({ busy, message, tickers, onActivate, onDismiss }: PlaybookButtonProps) {
  return (
    <div class="offer" role="group" aria-label="Playbook companion">
      <button type="button" class="turn" disabled={busy} onClick={onActivate}>
        Turn this into a playbook
      </button>
      {tickers.length > 0 ? <span class="tickers">{tickers.slice(0, 3).join(' · ')}</span> : null}
      <button
        type="button"
        class="dismiss"
        aria-label="Hide on this site"
        title="Hide on this site"
        onClick={onDismiss}
      >
        ×
      </button>
      {message ? (
        <p class="message" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}
