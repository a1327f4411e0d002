import { t } from '@/lib/i18n';
import { fieldProblemText, firstPerField } from '@/lib/i18n/problems';
import type { z } from 'zod';
import { log, maskSecretsDeep } from '@/lib/log';
import {
  envelopeSchema,
  messages,
  type Envelope,
  type MessageName,
  type ParsedRequestOf,
  type ResponseOf,
  type WireError,
} from './protocol';
import { classifySender, type ClassifiedSender, type SenderIdentity } from './sender';
import { HandledError } from '@/lib/contract/handledError';

export type Handler<N extends MessageName> = (
  request: ParsedRequestOf<N>,
  sender: Exclude<ClassifiedSender, { kind: 'foreign' }>,
) => Promise<ResponseOf<N>> | ResponseOf<N>;

export interface HandlerRegistry {
  register<N extends MessageName>(name: N, handler: Handler<N>): void;
  dispatch(raw: unknown, sender: unknown): Promise<Envelope<unknown>>;
}

/** One handler for every message of the map: a message without one is a type error. */
export type Handlers = { [N in MessageName]: Handler<N> };

/** The handlers of some messages: what one domain answers. */
export type HandlerGroup<K extends MessageName> = { [N in K]: Handler<N> };

/**
 * The group a domain's `register…Handlers(registry)` adds, with the names it answers declared for
 * the compiler. When called it checks the declaration against what the function registers, so a
 * declared name without a handler (or a handler not declared) fails at the worker's start.
 */
export function handlersOf<const K extends MessageName>(
  names: readonly K[],
  registerGroup: (registry: HandlerRegistry) => void,
): HandlerGroup<K> {
  const group = new Map<string, unknown>();
  registerGroup({
    register(name, handler) {
      if (group.has(name)) throw new Error(`A handler for ${name} is already registered`);
      group.set(name, handler);
    },
    dispatch: () => Promise.reject(new Error('A handler group does not dispatch')),
  });
  const declared = [...names].sort().join(', ');
  const registered = [...group.keys()].sort().join(', ');
  if (declared !== registered) throw new Error(`Declared handlers [${declared}], registered [${registered}]`);
  return Object.fromEntries(group) as HandlerGroup<K>;
}

/** Registers the whole table: the type makes it complete, `register` refuses a name twice. */
export function registerTable(registry: HandlerRegistry, table: Handlers): void {
  for (const name of Object.keys(table) as MessageName[]) registry.register(name, table[name]);
}

function fail(code: WireError['code'], message: string, extra: Partial<WireError> = {}): Envelope<never> {
  return { ok: false, error: { code, message, ...extra } };
}

/** How many fields a WireError names: a form shows one line each (the draft check's old bound). */
const MAX_WIRE_FIELDS = 20;

/**
 * A WireError's `fields`: the first message per dotted path, at most MAX_WIRE_FIELDS; `root` names
 * an issue about the whole value.
 */
export function fieldErrors(error: z.ZodError, root = '(message)'): Record<string, string> {
  return firstPerField(
    error.issues,
    (issue) => issue.path.map(String).join('.') || root,
    fieldProblemText,
    MAX_WIRE_FIELDS,
  );
}

function isMessageName(name: string): name is MessageName {
  return Object.prototype.hasOwnProperty.call(messages, name);
}

export interface RegistryOptions {
  /** Turns a domain error (an API error, say) into what the sender may see; undefined hides it. */
  mapError?: (error: unknown) => WireError | undefined;
}

/** Fails closed: unknown names, malformed payloads and disallowed senders never reach a handler. */
export function createHandlerRegistry(
  identity: SenderIdentity,
  options: RegistryOptions = {},
): HandlerRegistry {
  const handlers = new Map<MessageName, Handler<MessageName>>();

  return {
    register(name, handler) {
      if (!isMessageName(name)) throw new Error(`No message named ${String(name)} in the message map`);
      if (handlers.has(name)) throw new Error(`A handler for ${name} is already registered`);
      handlers.set(name, handler);
    },

    async dispatch(raw, rawSender) {
      const envelope = envelopeSchema.safeParse(raw);
      if (!envelope.success) return fail('malformed-message', t('errors.messaging.malformed'));
      const { type, payload } = envelope.data;
      if (!isMessageName(type)) {
        log.warn('messaging.unknown', { type });
        return fail('unknown-message', t('errors.messaging.unknown'));
      }
      const spec = messages[type];
      const sender = classifySender(rawSender as Parameters<typeof classifySender>[0], identity);
      if (sender.kind === 'foreign' || !(spec.senders as readonly string[]).includes(sender.kind)) {
        log.warn('messaging.sender-refused', { type, sender: sender.kind });
        return fail('sender-not-allowed', t('errors.messaging.senderNotAllowed'));
      }
      if (spec.topFrameOnly && sender.kind === 'content-script' && !sender.topFrame) {
        log.warn('messaging.sender-refused', { type, sender: 'sub-frame' });
        return fail('sender-not-allowed', t('errors.messaging.topFrameOnly'));
      }
      const request = (spec.request as z.ZodType).safeParse(payload);
      if (!request.success) {
        return fail('malformed-message', t('errors.messaging.badPayload'), {
          fields: fieldErrors(request.error),
        });
      }
      const handler = handlers.get(type);
      if (!handler) return fail('no-handler', t('errors.messaging.noHandler'));
      try {
        const value = await handler(request.data as ParsedRequestOf<MessageName>, sender);
        return { ok: true, value };
      } catch (error) {
        // Every error text leaves the worker here: no fragment of the key may ride along.
        if (error instanceof HandledError) return { ok: false, error: maskSecretsDeep(error.wire) };
        const mapped = options.mapError?.(error);
        if (mapped) return { ok: false, error: maskSecretsDeep(mapped) };
        log.error('messaging.handler-failed', { type, error });
        return fail('internal', t('errors.messaging.internal'));
      }
    },
  };
}
