import { t } from '@/lib/i18n';

/**
 * What the popup and the side panel show before the first-run setup saved a service (a fresh
 * store install): one sentence and the way to the setup, instead of a list that cannot be read.
 */
export function SetupNeeded({ onOpenSetup }: { onOpenSetup: () => void }) {
  return (
    <div class="callout setup-needed" role="status">
      <p>{t('common.setupNeeded')}</p>
      <button type="button" onClick={onOpenSetup}>
        {t('common.setupButton')}
      </button>
    </div>
  );
}
