import { storage } from 'wxt/utils/storage';
import { STORAGE_ITEMS } from '@/lib/store/inventory';

/** Which playbook the side panel should show: written by the popup, read and watched here. */
export interface SidePanelFocus {
  playbookId: string;
  at: number;
}

export const sidePanelFocusItem = storage.defineItem<SidePanelFocus | null>(
  STORAGE_ITEMS.sidePanelFocus.key,
  {
    fallback: null,
  },
);

/** `sidepanel.html?playbook=<id>` (notifications open it so). */
export function playbookFromUrl(search: string): string | undefined {
  const id = new URLSearchParams(search).get('playbook');
  return id && id.length <= 200 ? id : undefined;
}
