import type { Playbook } from '@/lib/api/schemas';
import { t, type TextKey } from '@/lib/i18n';

/** One word per status, shared by the popup's rows and the side panel: the compiler checks every status has one. */
const STATUS_TEXT: Record<Playbook['status'], TextKey> = {
  draft: 'popup.playbookStatus.draft',
  active: 'popup.playbookStatus.active',
  paused: 'popup.playbookStatus.paused',
  archived: 'popup.playbookStatus.archived',
};

/** The playbook's status as a word of the UI language; a status this build does not know, as sent. */
export function playbookStatusText(status: string): string {
  const key = Object.hasOwn(STATUS_TEXT, status) ? STATUS_TEXT[status as Playbook['status']] : undefined;
  return key ? t(key) : status;
}
