/**
 * The one table of writes: every fact about each write the extension can send (its wording, its
 * confirmation rule, which body the user may edit, what its answer may open), keyed by
 * `WriteOperation` so the compiler names a missing row. The outbox, the messages, the confirm
 * window and the side panel all read it; no other file lists writes.
 */
import { t, type TextKey } from '@/lib/i18n';
import { z } from 'zod';
import { playbookDraftSchema } from '@/lib/finance/schema';
import { visibilitySchema } from './schemas';
import { isLoopbackHost } from '@/lib/contract/origins';
import { carriesSecretInAnyForm } from '@/lib/log';
import { WRITE_OPERATIONS, type WriteOperation, type WriteResolution } from '@/lib/contract/writes';

// The write types cross contexts and are stored: they live in lib/contract/writes.ts.
export {
  WRITE_OPERATIONS,
  type ConfirmedIntent,
  type WriteOperation,
  type WriteResolution,
} from '@/lib/contract/writes';

/** What the user must type before Confirm: the playbook's title (live execution) or the plan (billing). */
export type TypedConfirmation = 'playbook-title' | 'plan';

/** The body the confirm window lets the user edit, and whether it sends the whole form or only changes. */
export interface EditableBody {
  schema: z.ZodType<Record<string, unknown>>;
  sends: 'whole-form' | 'changed-fields';
}

/** What kind of consequence a write has: the confirm window marks live execution, billing and linking. */
export type WriteClass = 'playbook' | 'live-execution' | 'billing' | 'account-linking';

/** The locale keys of what is said about one write. */
export interface WriteWordKeys {
  /** The confirm window's question. */
  heading: TextKey;
  /** Plain words on what happens when it is sent. */
  consequence: TextKey;
  /** What the confirm window and the side panel add once it was sent (none: nothing more). */
  successText?: TextKey;
  /** The notification's title after success. */
  successTitle: TextKey;
  /** A short name for lists (the popup's drafts). */
  label: TextKey;
  /** The subject of a sentence in the side panel ("The edit was sent."). */
  actionName: TextKey;
}

export type WriteWords = Record<keyof WriteWordKeys, string>;

export interface WriteSpec {
  class: WriteClass;
  /** Every sentence about this write, as keys of locales/ (read with writeWords in the UI language). */
  words: WriteWordKeys;
  typedConfirmation?: TypedConfirmation;
  editableBody?: EditableBody;
  /** The answer's `id` is the playbook the write made (a notification and the window link to it). */
  answerNamesPlaybook: boolean;
  /** The field of this operation's own answer that holds a page to open (https, or http on loopback). */
  opensUrlFrom?: 'checkout_url' | 'link_url';
  /** The operation's single path parameter carries a playbook id, whatever the document names it. */
  targetsPlaybook: boolean;
  /** Once sent, the playbook has a new backtest under way: the side panel reads its backtests again. */
  startsBacktest: boolean;
}

/** The edits a user may make to a new playbook in the confirm window; visibility is theirs to choose. */
const createBodySchema = playbookDraftSchema.extend({
  visibility: visibilitySchema,
  // The contract makes the source optional: a playbook typed in the side panel has none.
  source: playbookDraftSchema.shape.source.optional(),
});
const updateBodySchema = createBodySchema
  .pick({ title: true, thesis: true, tickers: true, visibility: true })
  .partial();

export const WRITES = {
  createPlaybook: {
    class: 'playbook',
    words: {
      heading: 'confirm.createPlaybook.heading',
      consequence: 'confirm.createPlaybook.consequence',
      successText: 'confirm.createPlaybook.successText',
      successTitle: 'notifications.createPlaybook',
      label: 'writes.createPlaybook.label',
      actionName: 'writes.createPlaybook.actionName',
    },
    editableBody: { schema: createBodySchema, sends: 'whole-form' },
    answerNamesPlaybook: true,
    targetsPlaybook: false,
    startsBacktest: false,
  },
  updatePlaybook: {
    class: 'playbook',
    words: {
      heading: 'confirm.updatePlaybook.heading',
      consequence: 'confirm.updatePlaybook.consequence',
      successTitle: 'notifications.updatePlaybook',
      label: 'writes.updatePlaybook.label',
      actionName: 'writes.updatePlaybook.actionName',
    },
    editableBody: { schema: updateBodySchema, sends: 'changed-fields' },
    answerNamesPlaybook: false,
    targetsPlaybook: true,
    startsBacktest: false,
  },
  runBacktest: {
    class: 'playbook',
    words: {
      heading: 'confirm.runBacktest.heading',
      consequence: 'confirm.runBacktest.consequence',
      successText: 'confirm.runBacktest.successText',
      successTitle: 'notifications.runBacktest',
      label: 'writes.runBacktest.label',
      actionName: 'writes.runBacktest.actionName',
    },
    answerNamesPlaybook: false,
    targetsPlaybook: true,
    startsBacktest: true,
  },
  activatePlaybook: {
    class: 'live-execution',
    words: {
      heading: 'confirm.activatePlaybook.heading',
      consequence: 'confirm.activatePlaybook.consequence',
      successTitle: 'notifications.activatePlaybook',
      label: 'writes.activatePlaybook.label',
      actionName: 'writes.activatePlaybook.actionName',
    },
    typedConfirmation: 'playbook-title',
    answerNamesPlaybook: false,
    targetsPlaybook: true,
    startsBacktest: false,
  },
  pausePlaybook: {
    class: 'live-execution',
    words: {
      heading: 'confirm.pausePlaybook.heading',
      consequence: 'confirm.pausePlaybook.consequence',
      successTitle: 'notifications.pausePlaybook',
      label: 'writes.pausePlaybook.label',
      actionName: 'writes.pausePlaybook.actionName',
    },
    // No typed title: stopping automation is the safe direction, and an investor stopping it in a
    // hurry should not have to type; the window, its arming delay and the worker's checks remain.
    answerNamesPlaybook: false,
    targetsPlaybook: true,
    startsBacktest: false,
  },
  createCheckoutSession: {
    class: 'billing',
    words: {
      heading: 'confirm.createCheckoutSession.heading',
      consequence: 'confirm.createCheckoutSession.consequence',
      successTitle: 'notifications.createCheckoutSession',
      label: 'writes.createCheckoutSession.label',
      actionName: 'writes.createCheckoutSession.actionName',
    },
    typedConfirmation: 'plan',
    answerNamesPlaybook: false,
    opensUrlFrom: 'checkout_url',
    targetsPlaybook: false,
    startsBacktest: false,
  },
  createBrokerageLink: {
    class: 'account-linking',
    words: {
      heading: 'confirm.createBrokerageLink.heading',
      consequence: 'confirm.createBrokerageLink.consequence',
      successTitle: 'notifications.createBrokerageLink',
      label: 'writes.createBrokerageLink.label',
      actionName: 'writes.createBrokerageLink.actionName',
    },
    answerNamesPlaybook: false,
    opensUrlFrom: 'link_url',
    targetsPlaybook: false,
    startsBacktest: false,
  },
} as const satisfies Record<WriteOperation, WriteSpec>;

/** The row of a write, typed as the general spec (optional fields readable on every row). */
export function writeSpec(operationId: WriteOperation): WriteSpec {
  return WRITES[operationId];
}

export function isWriteOperation(value: unknown): value is WriteOperation {
  return typeof value === 'string' && (WRITE_OPERATIONS as readonly string[]).includes(value);
}

/** "POST /v1/playbooks/pb_1/pause": how the confirm window and messages name a resolved write. */
export function describeResolution(resolution: Pick<WriteResolution, 'method' | 'url'>): string {
  let path = resolution.url;
  try {
    path = new URL(resolution.url).pathname;
  } catch {
    // Not a URL: show it as it is.
  }
  return `${resolution.method} ${path}`;
}

export function sameResolution(a: WriteResolution, b: WriteResolution): boolean {
  return a.operationId === b.operationId && a.method === b.method && a.url === b.url;
}

/** JSON with object keys sorted at every level, so equal values always compare (and send) the same. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
      const sorted: Record<string, unknown> = {};
      for (const name of Object.keys(item).sort()) sorted[name] = (item as Record<string, unknown>)[name];
      return sorted;
    }) ?? 'undefined'
  );
}

/** A fresh Idempotency-Key (UUID v4), made when the user confirms. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

export type OpenableUrl = { ok: true; url: string } | { ok: false; reason: string };

function decodedOrSame(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Whether a page named by the service may be opened in a tab: https, or http on a loopback host,
 * and no credentials in it (a user name, a password, or 8 characters in a row of the API key).
 * Anything else (javascript:, data:, plain http elsewhere) is not opened.
 */
export function openableUrl(value: unknown): OpenableUrl {
  if (typeof value !== 'string' || value.length === 0)
    return { ok: false, reason: t('errors.openUrl.missing') };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: t('errors.openUrl.notUrl') };
  }
  if (url.username || url.password) return { ok: false, reason: t('errors.openUrl.credentials') };
  // A link built with the API key would hand it to the payment or brokerage origin it opens.
  // In any disguise too: percent-escaped zero-width characters are read once decoded.
  if ([value, url.href, decodedOrSame(url.href)].some(carriesSecretInAnyForm))
    return { ok: false, reason: t('errors.openUrl.credentials') };
  if (url.protocol === 'https:') return { ok: true, url: url.href };
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return { ok: true, url: url.href };
  return {
    ok: false,
    reason: t('errors.openUrl.notHttps', { scheme: url.protocol.replace(/:$/, '') }),
  };
}

/** What is said about a write, in the UI language ("" where the table has nothing to add). */
export function writeWords(operation: WriteOperation): WriteWords {
  const keys: WriteWordKeys = WRITES[operation].words;
  return {
    heading: t(keys.heading),
    consequence: t(keys.consequence),
    successText: keys.successText ? t(keys.successText) : '',
    successTitle: t(keys.successTitle),
    label: t(keys.label),
    actionName: t(keys.actionName),
  };
}
