import { z } from 'zod';
import type { OutboxEntry } from '@/lib/outbox';

export type OutboxEntryView = OutboxEntry;
import type { SenderKind } from './sender';

/**
 * The one message contract between the extension's pages, its content script and the service
 * worker. Each message names its request schema (zod, strict), who may send it, and (as a type
 * parameter) what it answers. Nothing else may be sent; anything else is dropped with a typed error.
 */
export interface MessageSpec<Req extends z.ZodType, Res> {
  request: Req;
  senders: readonly Exclude<SenderKind, 'foreign'>[];
  /** Content scripts in sub-frames (ads, embeds) may not send it. */
  topFrameOnly?: boolean;
  /** Phantom: carries the response type. */
  readonly response?: Res;
}

function message<Res>() {
  return <Req extends z.ZodType>(spec: Omit<MessageSpec<Req, Res>, 'response'>): MessageSpec<Req, Res> => spec;
}

const EXTENSION_PAGES = ['extension-page'] as const;
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'Enter a full http(s) URL, like https://example.com');

export interface KeyState {
  set: boolean;
  /** The last four characters, so the user can tell which key is stored; never more. */
  last4?: string;
}

export interface SettingsState {
  serviceUrl: string;
  apiUrl: string;
  pollMinutes: number;
}

export interface HostAccessState {
  /** Origins of the configured service that still lack a host permission. */
  missingOrigins: string[];
}

export interface AppState {
  version: string;
  settings: SettingsState;
  key: KeyState;
  hostAccess: HostAccessState;
}

export const messages = {
  getState: message<AppState>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  saveSettings: message<AppState>()({
    request: z.strictObject({
      serviceUrl: httpUrl,
      apiUrl: httpUrl,
      pollMinutes: z.number().int().min(1).max(60).optional(),
    }),
    senders: EXTENSION_PAGES,
  }),
  saveApiKey: message<KeyState>()({
    request: z.strictObject({ key: z.string().trim().min(8).max(512).regex(/^[\x21-\x7e]+$/, 'Keys are printable ASCII') }),
    senders: EXTENSION_PAGES,
  }),
  removeApiKey: message<KeyState>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  getDraft: message<OutboxEntryView>()({
    request: z.strictObject({ id: z.uuid() }),
    senders: EXTENSION_PAGES,
  }),
  discardDraft: message<{ discarded: true }>()({
    request: z.strictObject({ id: z.uuid() }),
    senders: EXTENSION_PAGES,
  }),
  /** The content script's "Turn this into a playbook": an untrusted draft the background checks. */
  submitPageDraft: message<{ draftId: string }>()({
    request: z.strictObject({ draft: z.unknown() }),
    senders: ['content-script'],
    topFrameOnly: true,
  }),
} as const;

export type MessageMap = typeof messages;
export type MessageName = keyof MessageMap;
export type RequestOf<N extends MessageName> = z.input<MessageMap[N]['request']>;
export type ParsedRequestOf<N extends MessageName> = z.output<MessageMap[N]['request']>;
export type ResponseOf<N extends MessageName> = NonNullable<MessageMap[N]['response']>;

export type MessageErrorCode =
  | 'unknown-message'
  | 'malformed-message'
  | 'sender-not-allowed'
  | 'no-handler'
  | 'context-invalidated'
  | 'internal'
  | (string & {});

export interface WireError {
  code: MessageErrorCode;
  message: string;
  /** Field path → message, for forms. */
  fields?: Record<string, string>;
  /** Extra, already-safe details (for example an API error's kind, operation or link). */
  details?: Record<string, unknown>;
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: WireError };

export const envelopeSchema = z.strictObject({
  type: z.string().min(1).max(64),
  payload: z.unknown(),
});
