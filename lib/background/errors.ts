import { isApiError } from '@/lib/api';
import { t } from '@/lib/i18n';
import { McpEndpointError, McpToolRefusedError } from '@/lib/mcp/client';
import { DiscoveryDocumentError } from '@/lib/discovery';
import { maskSecretsDeep } from '@/lib/log';
import type { WireError } from '@/lib/messaging';
import { NOT_CONFIGURED_CODE, type WorkerErrorCode } from '@/lib/messaging/protocol';
import {
  InsecureServiceUrlError,
  ServiceNotConfiguredError,
  SettingsChangedError,
} from '@/lib/contract/origins';

/**
 * What a page may see of a failure: the API error's own safe form, with every fragment of the
 * key masked once more, since the wire is the last place a text leaves the worker.
 */
export function wireErrorOf(error: unknown): WireError | undefined {
  const wire = unmaskedWireErrorOf(error);
  return wire === undefined ? undefined : maskSecretsDeep(wire);
}

function unmaskedWireErrorOf(error: unknown): WireError | undefined {
  if (isApiError(error)) {
    const data = error.toJSON();
    return {
      code: `api.${data.kind}`,
      message: data.message,
      fields: data.fieldErrors,
      details: { ...data },
    };
  }
  if (error instanceof McpToolRefusedError) return own('mcp.refused', error.message);
  if (error instanceof McpEndpointError) return own('mcp.unavailable', error.message);
  if (error instanceof ServiceNotConfiguredError)
    return own(NOT_CONFIGURED_CODE, t('errors.settings.notConfigured'));
  if (error instanceof InsecureServiceUrlError)
    return own('settings.insecure', t('errors.settings.insecure'));
  if (error instanceof SettingsChangedError) return own('settings.changed', t('errors.settings.changed'));
  if (error instanceof DiscoveryDocumentError) {
    return own(
      'discovery.failed',
      t('errors.discovery.unreadable', { path: new URL(error.url).pathname, said: error.message }),
    );
  }
  return undefined;
}

/** One of the worker's own failures: its code is checked against the closed union. */
function own(code: WorkerErrorCode, message: string): WireError {
  return { code, message };
}
