import { useState } from 'preact/hooks';
import { Disclaimer } from './Disclaimer';

export type Visibility = 'private' | 'unlisted' | 'public';

export interface ConfirmFields {
  title: string;
  thesis: string;
  tickers: string[];
  visibility: Visibility;
}

export interface ConfirmDialogProps {
  operation: string;
  initial: ConfirmFields;
  sourceUrl?: string;
  account?: string;
  busy?: boolean;
  error?: string;
  onConfirm: (fields: ConfirmFields) => void;
  onCancel: () => void;
}

function parseTickers(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim().toUpperCase())
    .filter(Boolean);
}

/** Shows exactly what will be sent; nothing is written until the user presses Confirm. */
export function ConfirmDialog({
  operation,
  initial,
  sourceUrl,
  account,
  busy,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const [title, setTitle] = useState(initial.title);
  const [thesis, setThesis] = useState(initial.thesis);
  const [tickers, setTickers] = useState(initial.tickers.join(', '));
  const [visibility, setVisibility] = useState<Visibility>(initial.visibility);

  return (
    <div role="dialog" aria-label="Confirm" aria-modal="true" class="stack confirm">
      <h1>Create a playbook?</h1>
      <p>
        Operation <code>{operation}</code>
        {account ? (
          <>
            {' '}
            for account <strong>{account}</strong>
          </>
        ) : null}
        . Nothing is sent until you press Confirm.
      </p>
      <label>
        Title
        <input value={title} maxLength={120} onInput={(e) => setTitle(e.currentTarget.value)} />
      </label>
      <label>
        Thesis
        <textarea
          rows={8}
          value={thesis}
          maxLength={4000}
          onInput={(e) => setThesis(e.currentTarget.value)}
        />
      </label>
      <label>
        Tickers
        <input value={tickers} onInput={(e) => setTickers(e.currentTarget.value)} />
      </label>
      <label>
        Visibility
        <select value={visibility} onChange={(e) => setVisibility(e.currentTarget.value as Visibility)}>
          <option value="private">Private</option>
          <option value="unlisted">Unlisted</option>
          <option value="public">Public</option>
        </select>
      </label>
      {sourceUrl ? <p class="hint">Source: {sourceUrl}</p> : null}
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <div class="row">
        <button
          type="button"
          class="primary"
          disabled={busy}
          onClick={() => onConfirm({ title, thesis, tickers: parseTickers(tickers), visibility })}
        >
          Confirm
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <Disclaimer />
    </div>
  );
}
