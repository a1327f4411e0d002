import type { WireError } from './wire';

/**
 * An error a handler throws on purpose: its code and message reach the sender as they are
 * (lib/messaging/dispatch.ts answers it as the wire error). In the bottom layer so that the domains
 * the handlers call (lib/backtests, lib/writes) can throw it without importing lib/messaging.
 */
export class HandledError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message);
    this.name = 'HandledError';
  }
}
