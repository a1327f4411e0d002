import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { FINANCE_SITES, parseSitePattern } from '@/lib/finance/sites';
import { siteProblemText } from '@/lib/i18n/problems';
import { t } from '@/lib/i18n';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { userErrorText } from '@/lib/pages/errorText';
import type { SitesSectionProps } from './SitesSection';

const BUILT_IN_SITES = FINANCE_SITES.map((site) => site.name);

/** The finance sites the button may appear on: the built-in ones and those the user added. */
export function useSites(): SitesSectionProps & { busy: boolean } {
  const [extra, setExtra] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const failed = (failure: unknown) => setError(userErrorText(failure, 'options.sites-failed'));

  useEffect(() => {
    sendMessage('listSites', {}).then(({ extra }) => setExtra(extra), failed);
  }, []);

  const onAdd = (input: string) => {
    setError(undefined);
    const parsed = parseSitePattern(input);
    if (!parsed.ok) {
      setError(siteProblemText(parsed.problem, parsed.input));
      return;
    }
    // Called inside the click: the permission prompt needs the user gesture.
    const granted = browser.permissions.request({ origins: [parsed.pattern] });
    setBusy(true);
    granted
      .then((ok) => {
        if (!ok)
          throw new MessageError({
            code: 'site.permission-denied',
            message: t('options.siteDenied', { host: parsed.host }),
          });
        return sendMessage('addSite', { site: parsed.pattern });
      })
      .then(({ extra }) => setExtra(extra))
      .catch(failed)
      .finally(() => setBusy(false));
  };

  const onRemove = (pattern: string) => {
    setBusy(true);
    sendMessage('removeSite', { site: pattern })
      .then(({ extra }) => setExtra(extra))
      .catch(failed)
      .finally(() => setBusy(false));
  };

  return { builtIn: BUILT_IN_SITES, extra, error, busy, onAdd, onRemove };
}
