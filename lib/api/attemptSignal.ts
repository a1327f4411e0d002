/**
 * The clock and the caller's cancel button for one attempt (transport.ts): one signal that aborts
 * on either, whether it was the timeout, and a way to let a stream outlive the timeout.
 */
import { t } from '@/lib/i18n';
import { ApiError } from './errors';

export interface AttemptAbort {
  signal: AbortSignal;
  timedOut: () => boolean;
  /** Stops the timeout only: an open stream is no longer bounded by it, the caller's signal still is. */
  detachTimeout: () => void;
  dispose: () => void;
}

/**
 * Aborts on the caller's signal or the attempt timeout; the timeout can be detached once a stream
 * is open. The timeout is a plain timer, cleared when the attempt ends: AbortSignal.timeout and a
 * listener on it cost some 10 µs per request, and these are paid on every page of a walk.
 */
export function attemptAbort(
  timeoutMs: number,
  timeoutSignal: ((ms: number) => AbortSignal) | undefined,
  caller: AbortSignal | undefined,
): AttemptAbort {
  const controller = new AbortController();
  let timedOut = false;
  const onTimeout = (reason: unknown) => {
    timedOut = true;
    controller.abort(reason);
  };
  const onCaller = () => controller.abort(caller?.reason);
  let stopTimeout: () => void;
  if (timeoutSignal) {
    const timeout = timeoutSignal(timeoutMs);
    const onTimeoutSignal = () => onTimeout(timeout.reason);
    if (timeout.aborted) onTimeoutSignal();
    else timeout.addEventListener('abort', onTimeoutSignal, { once: true });
    stopTimeout = () => timeout.removeEventListener('abort', onTimeoutSignal);
  } else {
    const timer = setTimeout(
      () => onTimeout(new DOMException('The attempt timed out.', 'TimeoutError')),
      timeoutMs,
    );
    stopTimeout = () => clearTimeout(timer);
  }
  if (caller?.aborted) onCaller();
  else caller?.addEventListener('abort', onCaller, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    detachTimeout: stopTimeout,
    dispose: () => {
      stopTimeout();
      caller?.removeEventListener('abort', onCaller);
    },
  };
}

export function timedOut(operationId: string): ApiError {
  return new ApiError({
    kind: 'timeout',
    operationId,
    message: t('errors.api.timeout', { operation: operationId }),
  });
}

export function cancelled(operationId: string): ApiError {
  return new ApiError({
    kind: 'network',
    operationId,
    message: t('errors.api.cancelled', { operation: operationId }),
  });
}
