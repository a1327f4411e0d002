/** What the controller needs of a click to tell a user's click from a page's (see clickGuard.ts). */
export interface ButtonClick {
  isTrusted: boolean;
  clientX: number;
  clientY: number;
}

export interface PlaybookButtonProps {
  busy?: boolean;
  message?: string;
  tickers: string[];
  /** How many of the user's playbooks track this page: a count, never their titles. */
  tracked?: number;
  onActivate: (click: ButtonClick) => void;
  onDismiss: (click: ButtonClick) => void;
}

/** The floating offer on finance pages. Rendered inside a shadow root; page text only as text. */
export function PlaybookButton({
  busy,
  message,
  tickers,
  tracked = 0,
  onActivate,
  onDismiss,
}: PlaybookButtonProps) {
  return (
    <div class="offer" role="group" aria-label="Playbook companion">
      <button type="button" class="turn" disabled={busy} onClick={(event) => onActivate(event)}>
        Turn this into a playbook
      </button>
      {tickers.length > 0 ? <span class="tickers">{tickers.slice(0, 3).join(' · ')}</span> : null}
      <button
        type="button"
        class="dismiss"
        aria-label="Hide on this site"
        title="Hide on this site"
        onClick={(event) => onDismiss(event)}
      >
        ×
      </button>
      {tracked > 0 ? (
        <p class="tracked">
          {tracked === 1
            ? '1 of your playbooks tracks this page'
            : `${tracked} of your playbooks track this page`}
        </p>
      ) : null}
      {message ? (
        <p class="message" role="status">
          {message}
        </p>
      ) : null}
    </div>
  );
}
