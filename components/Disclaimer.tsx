import { t } from '@/lib/i18n';

export function Disclaimer() {
  return <p class="disclaimer">{t('common.disclaimerLine')}</p>;
}
