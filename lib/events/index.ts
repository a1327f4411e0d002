import type { HandlerRegistry } from '@/lib/messaging';

/**
 * Live events: SSE from `streamEvents` while a side panel is open, polling `listEvents` on an
 * alarm otherwise. Registers its listeners synchronously when the worker starts.
 */
export function startEvents(): void {
  // Filled in by the events work (issue 7).
}

/** The messages the Events tab sends. */
export function registerEventHandlers(_registry: HandlerRegistry): void {
  // Filled in by the events work (issue 7).
}
