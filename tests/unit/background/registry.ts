import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { registerHandlers } from '@/lib/background/handlers';
import { setLogSink } from '@/lib/log';
import { createHandlerRegistry, type HandlerRegistry } from '@/lib/messaging';

/** The worker's identity under WXT's fake browser. */
export const SELF = {
  extensionId: fakeBrowser.runtime.id,
  extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
};

/** A sender the registry takes for the options page. */
export const OPTIONS_PAGE = { id: SELF.extensionId, origin: SELF.extensionOrigin };

/**
 * The worker's registry with every handler registered, as lib/background/index.ts builds it.
 * WXT's fake browser leaves getManifest and permissions.contains unimplemented (the state answer
 * needs them), so they are stubbed; logs are silenced until `restoreLog`, which a beforeEach
 * returns.
 */
export function workerRegistry(): { registry: HandlerRegistry; restoreLog: () => void } {
  const registry = createHandlerRegistry(SELF);
  registerHandlers(registry);
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({
    manifest_version: 3,
    name: 'x',
    version: '1.2.3',
  });
  vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(true);
  return { registry, restoreLog: setLogSink(() => undefined) };
}
