import { useState } from 'preact/hooks';
import { t, formatList } from '@/lib/i18n';

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
      <h2 id="sites-title">{t('options.sitesHeading')}</h2>
      <p class="hint">{t('options.sitesHint', { sites: formatList(builtIn) })}</p>
      {extra.length > 0 ? (
        <ul class="sites" aria-label={t('options.extraSites')}>
          {extra.map((pattern) => (
            <li key={pattern} class="row">
              <code dir="ltr">{pattern}</code>
              <button
                type="button"
                class="small"
                disabled={busy}
                onClick={() => onRemove(pattern)}
                aria-label={t('options.removeNamed', { pattern })}
              >
                {t('options.remove')}
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
          <label for="field-site">{t('options.siteAddress')}</label>
          <input
            id="field-site"
            type="text"
            value={site}
            placeholder={t('options.sitePlaceholder')}
            onInput={(e) => setSite(e.currentTarget.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'site-error' : undefined}
          />
        </div>
        <button type="submit" disabled={busy}>
          {t('options.addSite')}
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
