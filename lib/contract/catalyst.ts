/**
 * The contract's Catalyst and Performance (CONTRACT.md section 2.1) as the extension accepts them.
 * Both are service output: strings and lists are bounded, numbers finite, dates checked for shape,
 * and `at` agrees with `all_day`. A kind or session this version does not know reads as `other` /
 * `unknown` instead of refusing the answer; an unknown status is refused, since reminders and the
 * calendar's STATUS turn on it.
 */
import { z } from 'zod';

export const CATALYST_KINDS = [
  'earnings',
  'dividend',
  'filing',
  'economic',
  'regulatory',
  'product',
  'other',
] as const;
export const CATALYST_STATUSES = ['confirmed', 'estimated', 'cancelled'] as const;
export const CATALYST_SESSIONS = ['pre-market', 'after-close', 'unknown'] as const;
export type CatalystKind = (typeof CATALYST_KINDS)[number];
export type CatalystStatus = (typeof CATALYST_STATUSES)[number];
export type CatalystSession = (typeof CATALYST_SESSIONS)[number];

export const MAX_CATALYST_TITLE = 300;
export const MAX_CATALYST_PLAYBOOKS = 100;
export const MAX_PERFORMANCE_TICKERS = 100;

/** YYYY-MM-DD of a real calendar day. */
export const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** RFC 3339 date-time; the offset is required (`Z` or `±hh:mm`), fractions of a second allowed. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:z|[+-]\d{2}:\d{2})$/i;

export function isFullDate(value: string): boolean {
  const match = FULL_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && Number.isFinite(Date.parse(value));
}

const id = z.string().min(1).max(200);
/** Exchange symbols as services write them: BRK.B, 7203.T, SAAB-B.ST, ^GSPC, BTC/USD. */
const symbol = z.string().regex(/^[\w.^=:/-]{1,32}$/);
const fullDate = z.string().refine(isFullDate, 'a full-date as YYYY-MM-DD');
const finite = z.number().finite();

export const catalystSchema = z
  .object({
    id,
    ticker: symbol,
    kind: z.enum(CATALYST_KINDS).catch('other'),
    title: z.string().min(1).max(MAX_CATALYST_TITLE),
    at: z.string().max(40),
    all_day: z.boolean(),
    status: z.enum(CATALYST_STATUSES),
    session: z.enum(CATALYST_SESSIONS).catch('unknown').optional(),
    // A link that is not http(s) is dropped, not followed and not a reason to refuse the catalyst.
    source_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .catch(undefined),
    playbook_ids: z.array(id).max(MAX_CATALYST_PLAYBOOKS),
    sequence: z.number().int().min(0).max(2_147_483_647),
    updated_at: z.string().max(64),
  })
  .refine((c) => (c.all_day ? isFullDate(c.at) : isDateTime(c.at)), {
    message: 'at is a full-date when all_day, else an RFC 3339 date-time',
    path: ['at'],
  });
export type Catalyst = z.infer<typeof catalystSchema>;

/** The `catalyst.changed` event's data. */
export const catalystChangedSchema = z.object({
  catalyst_id: id,
  ticker: symbol,
  at: z.string().max(40),
  status: z.enum(CATALYST_STATUSES),
});
export type CatalystChanged = z.infer<typeof catalystChangedSchema>;

/** A return as a fraction: a long position loses at most everything; ×1,000 is beyond any real one. */
const fraction = finite.min(-1).max(1000);

export const tickerPerformanceSchema = z.object({
  symbol,
  currency: z.string().regex(/^[A-Z]{3}$/),
  start_price: finite.positive(),
  last_price: finite.min(0),
  return: fraction,
});

export const performanceSchema = z.object({
  playbook_id: id,
  since: fullDate,
  as_of: fullDate,
  return: fraction.nullable(),
  benchmark: z.object({ symbol, return: fraction }),
  tickers: z.array(tickerPerformanceSchema).max(MAX_PERFORMANCE_TICKERS),
});
export type Performance = z.infer<typeof performanceSchema>;
