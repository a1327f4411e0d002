/**
 * Live events: SSE from `streamEvents` while a side panel is open, polling `listEvents` on an
 * alarm otherwise. Registers its listeners synchronously when the worker starts.
 */
export function startEvents(): void {
  // Filled in by the events work (issue 7).
}
