import { useState } from 'preact/hooks';
import { sendMessage } from '@/lib/messaging/client';
import type { ServiceOverview } from '@/lib/messaging/protocol';
import { errorParts, type ErrorParts } from '@/lib/pages/errorText';

export interface ConnectionTest {
  testing: boolean;
  result?: ServiceOverview;
  error?: ErrorParts;
  test: () => void;
  /** One status line: a result about an earlier key goes when a new one is checked. */
  clear: () => void;
}

/** "Test connection": discovery, the service's status and the account behind the key. */
export function useConnectionTest(): ConnectionTest {
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ServiceOverview>();
  const [error, setError] = useState<ErrorParts>();
  const test = () => {
    setTesting(true);
    setError(undefined);
    sendMessage('testConnection', {})
      .then(setResult, (failure: unknown) => {
        setResult(undefined);
        setError(errorParts(failure));
      })
      .finally(() => setTesting(false));
  };
  const clear = () => {
    setResult(undefined);
    setError(undefined);
  };
  return { testing, result, error, test, clear };
}
