import { t } from '@/lib/i18n';
import { browser } from 'wxt/browser';
import type { Envelope, MessageName, RequestOf, ResponseOf, WireError } from './protocol';

export class MessageError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message);
    this.name = 'MessageError';
  }
  get code() {
    return this.wire.code;
  }
}

/** Sends one typed message to the service worker and unwraps its envelope. */
export async function sendMessage<N extends MessageName>(
  type: N,
  payload: RequestOf<N>,
): Promise<ResponseOf<N>> {
  let envelope: Envelope<ResponseOf<N>> | undefined;
  try {
    envelope = await browser.runtime.sendMessage<unknown, Envelope<ResponseOf<N>> | undefined>({
      type,
      payload,
    });
  } catch (error) {
    const text = error instanceof Error ? error.message : '';
    if (/context invalidated/i.test(text)) {
      throw new MessageError({
        code: 'context-invalidated',
        message: t('errors.messaging.updated'),
      });
    }
    throw new MessageError({ code: 'internal', message: t('errors.messaging.noAnswer') });
  }
  if (!envelope || typeof envelope !== 'object' || !('ok' in envelope)) {
    throw new MessageError({ code: 'internal', message: t('errors.messaging.noAnswer') });
  }
  if (!envelope.ok) throw new MessageError(envelope.error);
  return envelope.value;
}
