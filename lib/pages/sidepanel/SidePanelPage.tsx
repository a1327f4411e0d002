import { useEffect, useState } from 'preact/hooks';
import {
  backtestFromUrl,
  openServiceSetup,
  playbookFromUrl,
  sidePanelFocusItem,
  type SidePanelFocus,
} from '@/lib/pages/navigation';
import { log } from '@/lib/log';
import { SetupNeeded } from '@/components/SetupNeeded';
import { DiscoveryTab } from './DiscoveryTab';
import { EventsTab } from './EventsTab';
import { useEventsPort } from './eventsPort';
import { useServiceReport, useServiceSetup } from './useServiceState';
import { PlaybooksTab } from './PlaybooksTab';
import { PageMatchesSection } from './PageMatchesSection';
import { SidePanelView, type SidePanelTab } from './SidePanelView';

/** The side panel (or Firefox sidebar, or sidepanel.html in a tab): playbooks, discovery, events. */
export function SidePanelPage({ search = '' }: { search?: string }) {
  const [tab, setTab] = useState<SidePanelTab>('playbooks');
  const [focus, setFocus] = useState<SidePanelFocus | undefined>(() => {
    const id = playbookFromUrl(search);
    const backtestId = backtestFromUrl(search);
    return id ? { playbookId: id, ...(backtestId ? { backtestId } : {}), at: Date.now() } : undefined;
  });
  const { report, reportError, running, runDiscovery, readReport, plans, providers } = useServiceReport();
  const { setup, checkSetup } = useServiceSetup(() => void readReport());
  const events = useEventsPort();

  useEffect(() => {
    // Nothing is read (no tab mounts, no discovery runs) until the worker says a service is saved.
    void checkSetup();
    const show = (value: SidePanelFocus | null) => {
      if (!value) return;
      setFocus(value);
      setTab('playbooks');
    };
    // The URL names a playbook explicitly; the popup's focus item only applies without one.
    if (!playbookFromUrl(search)) sidePanelFocusItem.getValue().then(show, () => undefined);
    return sidePanelFocusItem.watch(show);
  }, []);

  if (setup === 'unknown') return <main class="stack sidepanel" aria-busy="true" />;
  if (setup === 'needed')
    return (
      <main class="stack sidepanel">
        <SetupNeeded
          onOpenSetup={() => {
            openServiceSetup().catch((error: unknown) => log.warn('setup.open-failed', { error }));
          }}
        />
      </main>
    );
  return (
    <SidePanelView
      selected={tab}
      onSelect={setTab}
      counts={{ events: events.unread }}
      below={
        <PageMatchesSection
          onOpen={(playbookId) => {
            setFocus({ playbookId, at: Date.now() });
            setTab('playbooks');
          }}
        />
      }
      panels={{
        playbooks: (
          <PlaybooksTab focus={focus} events={events.events ?? []} plans={plans} providers={providers} />
        ),
        discovery: (
          <DiscoveryTab
            report={report}
            reportError={reportError}
            running={running}
            onRun={runDiscovery}
            active={tab === 'discovery'}
          />
        ),
        events: (
          <EventsTab
            events={events}
            active={tab === 'events'}
            onBadgeCleared={() => events.setUnread(0)}
            onOpenPlaybook={(playbookId) => {
              setFocus({ playbookId, at: Date.now() });
              setTab('playbooks');
            }}
          />
        ),
      }}
    />
  );
}
