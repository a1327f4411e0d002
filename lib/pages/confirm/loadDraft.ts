import type { PlaybookFields, SourceView } from './ConfirmDialog';
import { isEditable, needsBrokerage, sentRows } from './describe';
import { bodyEnum } from '@/lib/pages/openapiEnums';
import type { Playbook } from '@/lib/api/schemas';
import { t } from '@/lib/i18n';
import { sendMessage } from '@/lib/messaging/client';
import { writeSpec } from '@/lib/api/writeOperations';
import { isVisibility } from '@/lib/contract/visibility';
import type { PendingWrite, WriteDraft } from '@/lib/messaging/protocol';
import { errorParts, type ErrorParts } from '@/lib/pages/errorText';

export interface Loaded {
  pending: PendingWrite;
  /** For an update: the playbook as it is now, so the dialog can show the changes. */
  current?: Partial<PlaybookFields>;
  /** The title of the playbook the write acts on, as it is now: the heading names it. */
  playbookTitle?: string;
  /** Live execution with no brokerage linked: the brokerages the service can link (maybe none known). */
  brokerageMissing?: { providers: string[] };
}

/** The window cannot show the draft: said in the user's words, the read's technical record kept. */
export class DraftUnavailable extends Error {
  constructor(readonly problem: ErrorParts) {
    super(problem.message);
    this.name = 'DraftUnavailable';
  }
}

/** The playbook a draft acts on (drafts from earlier versions named it `path.id`). */
export function playbookOf(draft: WriteDraft): string | undefined {
  return draft.playbookId ?? draft.path?.id;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function playbookFields(source: Record<string, unknown>): PlaybookFields {
  const visibility = isVisibility(source.visibility) ? source.visibility : 'private';
  return {
    title: text(source.title),
    thesis: text(source.thesis),
    tickers: Array.isArray(source.tickers)
      ? source.tickers.filter((t): t is string => typeof t === 'string')
      : [],
    visibility,
  };
}

/** The page a new playbook came from, all of it as sent: the user sees every word the page supplied. */
function sourceOf(body: Record<string, unknown> | undefined): SourceView | undefined {
  const source = body?.source;
  if (!source || typeof source !== 'object') return undefined;
  const { url, title, excerpt } = source as { url?: unknown; title?: unknown; excerpt?: unknown };
  if (typeof url !== 'string') return undefined;
  return {
    url,
    title: typeof title === 'string' ? title : undefined,
    excerpt: typeof excerpt === 'string' ? excerpt : undefined,
  };
}

/**
 * The playbook as it is now. A write that sends only the changed fields cannot be shown without
 * it (the form would start from blanks and could clear fields the user never touched): its
 * failure is the window's. For any other write it only names the playbook, so it may be missing.
 */
async function playbookNow(playbookId: string, required: boolean): Promise<Playbook | undefined> {
  try {
    return await sendMessage('getPlaybook', { id: playbookId });
  } catch (error) {
    if (!required) return undefined;
    const read = errorParts(error);
    throw new DraftUnavailable({
      message: t('confirm.playbookUnavailable', { error: read.message }),
      details: read.details,
    });
  }
}

/**
 * Whether the account says no brokerage is linked (the account as the worker reads it with
 * getAccount), and which brokerages the service's document lets the user link. Unknown counts as
 * linked: the service still refuses an activation it cannot carry out.
 */
async function brokerageMissing(): Promise<Loaded['brokerageMissing']> {
  const overview = await sendMessage('getOverview', {}).catch(() => undefined);
  if (overview?.account?.brokerage_linked !== false) return undefined;
  const report = await sendMessage('getDiscoveryReport', {}).catch(() => null);
  return { providers: bodyEnum(report?.documents.openapi, 'createBrokerageLink', 'provider') };
}

export async function loadDraft(draftId: string): Promise<Loaded> {
  const pending = await sendMessage('getPendingWrite', { id: draftId });
  const operation = pending.entry.operationId;
  const playbookId = playbookOf(pending.entry.draft);
  // A write that sends only the changed fields shows them against the playbook as it is now.
  const sendsChanges = writeSpec(operation).editableBody?.sends === 'changed-fields';
  const [playbook, missing] = await Promise.all([
    playbookId && writeSpec(operation).targetsPlaybook ? playbookNow(playbookId, sendsChanges) : undefined,
    needsBrokerage(operation) ? brokerageMissing() : undefined,
  ]);
  return {
    pending,
    current: playbook && sendsChanges ? playbookFields(playbook) : undefined,
    playbookTitle: playbook?.title,
    brokerageMissing: missing,
  };
}

/** The body the user confirms: the whole form for a new playbook, only what changes for an update. */
export function editsFor(
  loaded: Loaded,
  fields: PlaybookFields | undefined,
): Record<string, unknown> | undefined {
  const editable = writeSpec(loaded.pending.entry.operationId).editableBody;
  if (!fields || !editable) return undefined;
  if (editable.sends === 'whole-form') return { ...fields };
  const queued = loaded.pending.entry.draft.body ?? {};
  const edits: Record<string, unknown> = {};
  for (const field of ['title', 'thesis', 'tickers', 'visibility'] as const) {
    const was = loaded.current?.[field];
    const changed = JSON.stringify(was) !== JSON.stringify(fields[field]);
    if (field in queued || changed) edits[field] = fields[field];
  }
  return edits;
}

/** What the dialog shows of the loaded draft: the write, the playbook it names, what is sent. */
export function shownDraft({ pending, current, playbookTitle, brokerageMissing }: Loaded) {
  const { entry } = pending;
  const body = entry.draft.body;
  const editable = isEditable(entry.operationId);
  const playbookId = playbookOf(entry.draft);
  return {
    operation: entry.operationId,
    resolved: pending.resolved,
    refusal: pending.refusal,
    consequence: pending.consequence,
    account: pending.account,
    initial: editable ? playbookFields({ ...current, ...body }) : undefined,
    current,
    playbookTitle,
    body,
    brokerageMissing: brokerageMissing !== undefined,
    rows: editable
      ? sentRows({ playbookId, ifMatch: entry.draft.ifMatch })
      : sentRows({ ...entry.draft, playbookId }),
    source: sourceOf(body),
    typeToConfirm: pending.typeToConfirm,
  };
}
