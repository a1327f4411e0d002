import { useState } from 'preact/hooks';

export interface SitesSectionProps {
  /** Names of the finance sites built in (always on). */
  builtIn: readonly string[];
  /** Extra match patterns the user added and granted. */
  extra: readonly string[];
  error?: string;
  busy?: boolean;
  /** Called inside the click (a user gesture), so the page can ask for the permission. */
  onAdd: (site: string) => void;
  onRemove: (pattern: string) => void;
}

/** Which finance sites the "Turn this into a playbook" button may appear on. */
export function SitesSection({ builtIn, extra, error, busy, onAdd, onRemove }: SitesSectionProps) {
  const [site, setSite] = useState('');
  return (
    <section class="card stack" aria-labelledby="sites-title">
      <h2 id="sites-title">Finance sites</h2>
      <p class="hint">
        The page button runs on {builtIn.join(', ')}. Add another site and the browser will ask you to allow
        it.
      </p>
      {extra.length > 0 ? (
        <ul class="sites" aria-label="Extra sites">
          {extra.map((pattern) => (
            <li key={pattern} class="row">
              <code>{pattern}</code>
              <button
                type="button"
                class="small"
                disabled={busy}
                onClick={() => onRemove(pattern)}
                aria-label={`Remove ${pattern}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        class="row site-add"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onAdd(site);
        }}
      >
        <div class="field grow">
          <label for="field-site">Site address</label>
          <input
            id="field-site"
            type="text"
            value={site}
            placeholder="finance.example.com"
            onInput={(e) => setSite(e.currentTarget.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'site-error' : undefined}
          />
        </div>
        <button type="submit" disabled={busy}>
          Add site
        </button>
      </form>
      {error ? (
        <p id="site-error" class="error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
