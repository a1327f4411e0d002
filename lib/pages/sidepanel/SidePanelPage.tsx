import { useEffect, useMemo, useState } from 'preact/hooks';
import { isCurrentDiscoveryReport, type DiscoveryReport } from '@/lib/discovery';
import { sendMessage } from '@/lib/messaging/client';
import {
  backtestFromUrl,
  playbookFromUrl,
  sidePanelFocusItem,
  type SidePanelFocus,
} from '@/lib/pages/navigation';
import { errorText } from '@/lib/pages/errorText';
import { shownPricing } from './discoveryDocuments';
import { DiscoveryTab } from './DiscoveryTab';
import { EventsTab } from './EventsTab';
import { useEventsPort } from './eventsPort';
import { bodyEnum } from './openapiEnums';
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
        setReportError(errorText(error));
        setRunning(false);
      },
    );
  };

  useEffect(() => {
    sendMessage('getDiscoveryReport', {}).then(
      (stored) => (isCurrentDiscoveryReport(stored) ? setReport(stored) : runDiscovery()),
      (error: unknown) => setReportError(errorText(error)),
    );
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
