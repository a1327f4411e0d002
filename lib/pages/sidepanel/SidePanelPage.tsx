import { useEffect, useMemo, useState } from 'preact/hooks';
import { isCurrentDiscoveryReport, type DiscoveryReport } from '@/lib/discovery';
import { sendMessage } from '@/lib/messaging/client';
import {
  backtestFromUrl,
  openServiceSetup,
  playbookFromUrl,
  sidePanelFocusItem,
  type SidePanelFocus,
} from '@/lib/pages/navigation';
import { log } from '@/lib/log';
import { SetupNeeded } from '@/components/SetupNeeded';
import { errorText, userErrorText } from '@/lib/pages/errorText';
import { shownPricing } from './discoveryDocuments';
import { DiscoveryTab } from './DiscoveryTab';
import { EventsTab } from './EventsTab';
import { useEventsPort } from './eventsPort';
import { bodyEnum } from '@/lib/pages/openapiEnums';
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
  const [report, setReport] = useState<DiscoveryReport | null>();
  const [reportError, setReportError] = useState<string>();
  const [running, setRunning] = useState(false);
  /** Unknown until the worker answers; 'needed' before a service is saved (a fresh store install). */
  const [setup, setSetup] = useState<'unknown' | 'needed' | 'done'>('unknown');
  const events = useEventsPort();

  const runDiscovery = () => {
    setRunning(true);
    setReportError(undefined);
    sendMessage('runDiscovery', {}).then(
      (fresh) => {
        setReport(fresh);
        setRunning(false);
      },
      (error: unknown) => {
        setReportError(userErrorText(error, 'sidepanel.discovery-failed'));
        setRunning(false);
      },
    );
  };

  const readReport = () =>
    sendMessage('getDiscoveryReport', {}).then(
      (stored) => (isCurrentDiscoveryReport(stored) ? setReport(stored) : runDiscovery()),
      (error: unknown) => setReportError(userErrorText(error, 'sidepanel.discovery-failed')),
    );

  /** Asks the worker whether a service is saved; the tabs mount (and read) only once one is. */
  const checkSetup = () =>
    sendMessage('getState', {}).then(
      (state) => {
        if (state.serviceSetup) return setSetup('needed');
        setSetup('done');
        void readReport();
      },
      (error: unknown) => {
        // The tabs say what fails; an unanswered state must not hide them.
        log.warn('sidepanel.state-failed', { error: errorText(error) });
        setSetup('done');
        void readReport();
      },
    );

  // The panel stays open while the user saves the service in the options page: back in the
  // panel (focus, or the panel shown again), it asks once more.
  useEffect(() => {
    if (setup !== 'needed') return;
    const recheck = () => {
      if (document.visibilityState === 'visible') void checkSetup();
    };
    addEventListener('focus', recheck);
    document.addEventListener('visibilitychange', recheck);
    return () => {
      removeEventListener('focus', recheck);
      document.removeEventListener('visibilitychange', recheck);
    };
  }, [setup]);

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

  const plans = useMemo(() => {
    const declared = bodyEnum(report?.documents.openapi, 'createCheckoutSession', 'plan');
    if (declared.length > 0 || !report) return declared;
    return (shownPricing(report).pricing ?? []).map((row) => row.name);
  }, [report]);
  const providers = useMemo(
    () => bodyEnum(report?.documents.openapi, 'createBrokerageLink', 'provider'),
    [report],
  );

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
