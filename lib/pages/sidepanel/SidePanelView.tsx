import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { Disclaimer } from '@/components/Disclaimer';
import { formatNumber, t, type TextKey } from '@/lib/i18n';

export type SidePanelTab = 'playbooks' | 'discovery' | 'events';

const TABS: { id: SidePanelTab; label: TextKey }[] = [
  { id: 'playbooks', label: 'sidepanel.tabs.playbooks' },
  { id: 'discovery', label: 'sidepanel.tabs.discovery' },
  { id: 'events', label: 'sidepanel.tabs.events' },
];

export interface SidePanelViewProps {
  initialTab?: SidePanelTab;
  /** Controlled selection (a notification or the popup can ask for a tab); falls back to internal state. */
  selected?: SidePanelTab;
  onSelect?: (tab: SidePanelTab) => void;
  /** Shown next to a tab's name, e.g. the number of unread events. */
  counts?: Partial<Record<SidePanelTab, number>>;
  panels: Record<SidePanelTab, ComponentChildren>;
  /**
   * Drawn below the tab panels ("On this page"): it comes and goes as the user browses, and
   * nothing under the pointer or the focus may move when it does.
   */
  below?: ComponentChildren;
}

/** WAI-ARIA tabs: arrow keys move between tabs, only the selected tab is in the tab order. */
export function SidePanelView({
  initialTab = 'playbooks',
  panels,
  counts,
  below,
  ...control
}: SidePanelViewProps) {
  const [own, setOwn] = useState<SidePanelTab>(initialTab);
  const selected = control.selected ?? own;
  const setSelected = (tab: SidePanelTab) => {
    setOwn(tab);
    control.onSelect?.(tab);
  };
  const move = (from: number, step: number) => {
    const next = TABS[(from + step + TABS.length) % TABS.length];
    setSelected(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };
  return (
    <main class="stack sidepanel">
      <div role="tablist" aria-label={t('sidepanel.tabs.label')} class="row">
        {TABS.map((tab, index) => (
          <button
            key={tab.id}
            id={`tab-${tab.id}`}
            role="tab"
            type="button"
            aria-selected={selected === tab.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={selected === tab.id ? 0 : -1}
            onClick={() => setSelected(tab.id)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowRight') move(index, 1);
              if (event.key === 'ArrowLeft') move(index, -1);
            }}
          >
            {t(tab.label)}
            {counts?.[tab.id] ? (
              // Kept out of the accessible name: the tab stays "Events" (CONTRACT.md section 6).
              <span class="badge" aria-hidden="true">
                {formatNumber(counts[tab.id] ?? 0)}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <section
          key={tab.id}
          id={`panel-${tab.id}`}
          role="tabpanel"
          aria-labelledby={`tab-${tab.id}`}
          hidden={selected !== tab.id}
        >
          {panels[tab.id]}
        </section>
      ))}
      {below}
      <Disclaimer />
    </main>
  );
}
