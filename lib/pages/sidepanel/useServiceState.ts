import { useEffect, useMemo, useState } from 'preact/hooks';
import { isCurrentDiscoveryReport, type DiscoveryReport } from '@/lib/discovery';
import { sendMessage } from '@/lib/messaging/client';
import { log } from '@/lib/log';
import { errorText, userErrorText } from '@/lib/pages/errorText';
import { bodyEnum } from '@/lib/pages/openapiEnums';
import { shownPricing } from './discoveryDocuments';

/** The service's discovery report (stored, or run afresh), and the plans and providers its documents name. */
export function useServiceReport() {
  const [report, setReport] = useState<DiscoveryReport | null>();
  const [reportError, setReportError] = useState<string>();
  const [running, setRunning] = useState(false);

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

  const plans = useMemo(() => {
    const declared = bodyEnum(report?.documents.openapi, 'createCheckoutSession', 'plan');
    if (declared.length > 0 || !report) return declared;
    return (shownPricing(report).pricing ?? []).map((row) => row.name);
  }, [report]);
  const providers = useMemo(
    () => bodyEnum(report?.documents.openapi, 'createBrokerageLink', 'provider'),
    [report],
  );
  return { report, reportError, running, runDiscovery, readReport, plans, providers };
}

/**
 * Whether a service is saved: unknown until the worker answers; 'needed' before one is (a fresh
 * store install). `onReady` runs each time the answer is that one is (or the worker cannot say).
 */
export function useServiceSetup(onReady: () => void) {
  const [setup, setSetup] = useState<'unknown' | 'needed' | 'done'>('unknown');

  const checkSetup = () =>
    sendMessage('getState', {}).then(
      (state) => {
        if (state.serviceSetup) return setSetup('needed');
        setSetup('done');
        onReady();
      },
      (error: unknown) => {
        // The tabs say what fails; an unanswered state must not hide them.
        log.warn('sidepanel.state-failed', { error: errorText(error) });
        setSetup('done');
        onReady();
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

  return { setup, checkSetup };
}
