import { useEffect, useState } from 'preact/hooks';

/** How long the confirm window must be visible and focused before Confirm can be pressed. */
export const CONFIRM_ARM_DELAY_MS = 800;

function shownAndFocused(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/**
 * Arms a button only after the page has been visible and focused for `delayMs`, and disarms it
 * whenever the page loses focus or is hidden, as browsers do for install prompts: a click aimed
 * at another window (or timed to land as this one appears) cannot confirm a write.
 * A change of `resetKey` (what Confirm would send) disarms it and starts the delay again.
 */
export function useArming(delayMs: number = CONFIRM_ARM_DELAY_MS, resetKey = ''): boolean {
  const [armed, setArmed] = useState(delayMs <= 0);
  useEffect(() => {
    if (delayMs <= 0) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const disarm = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      setArmed(false);
    };
    const rearm = () => {
      disarm();
      if (shownAndFocused()) timer = setTimeout(() => setArmed(true), delayMs);
    };
    const onVisibility = () => (document.visibilityState === 'visible' ? rearm() : disarm());
    rearm();
    globalThis.addEventListener('focus', rearm);
    globalThis.addEventListener('blur', disarm);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      globalThis.removeEventListener('focus', rearm);
      globalThis.removeEventListener('blur', disarm);
      document.removeEventListener('visibilitychange', onVisibility);
    };
    // A new resetKey (what Confirm would send changed) starts the delay again.
  }, [delayMs, resetKey]);
  return armed;
}
