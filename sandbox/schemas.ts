/**
 * Request and response shapes: zod validates requests, and the same schemas become the
 * OpenAPI document's JSON Schemas (z.toJSONSchema), so the two cannot drift apart.
 */
import { z } from 'zod';
import { VISIBILITIES } from '../lib/contract/visibility';
import {
  CATALYST_KINDS,
  CATALYST_SESSIONS,
  CATALYST_STATUSES,
  MAX_CATALYST_PLAYBOOKS,
} from './catalystModel';

export type { Visibility } from '../lib/contract/visibility';

export const MAX_BODY_BYTES = 64 * 1024;
export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;
export const BATCH_MAX = 50;
export const PLANS = ['starter', 'pro', 'team'] as const;

export const visibilitySchema = z.enum(VISIBILITIES);
export const playbookStatusSchema = z.enum(['draft', 'active', 'paused', 'archived']);
export const ticker = z.string().regex(/^[A-Z0-9][A-Z0-9.-]{0,11}$/, 'a ticker symbol such as AAPL or BRK.B');
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'a real calendar date');

export const createPlaybookBody = z
  .object({
    title: z.string().trim().min(1).max(200),
    thesis: z.string().trim().min(1).max(8000),
    visibility: visibilitySchema,
    tickers: z.array(ticker).max(25).optional(),
    source: z
      .object({
        url: z.url({ protocol: /^https?$/ }).max(2048),
        title: z.string().max(300),
        excerpt: z.string().max(4000),
      })
      .strict()
      .optional(),
  })
  .strict();

export const updatePlaybookBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    thesis: z.string().trim().min(1).max(8000).optional(),
    visibility: visibilitySchema.optional(),
    tickers: z.array(ticker).max(25).optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'at least one field to change');

export const batchGetBody = z
  .object({ ids: z.array(z.string().min(1).max(64)).min(1).max(BATCH_MAX) })
  .strict();

export const runBacktestBody = z
  .object({
    start: isoDate,
    end: isoDate,
    benchmark: z
      .string()
      .regex(/^[A-Z0-9.\-^]{1,12}$/)
      .optional(),
  })
  .strict()
  .refine((b) => b.start < b.end, { message: 'start must be before end', path: ['end'] });

export const emptyBody = z.object({}).strict();
export const checkoutBody = z.object({ plan: z.enum(PLANS) }).strict();
export const brokerageLinkBody = z
  .object({ provider: z.enum(['alpaca', 'interactive-brokers', 'schwab', 'sandbox-broker']) })
  .strict();

const problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

const playbook = z.object({
  id: z.string(),
  title: z.string(),
  thesis: z.string(),
  visibility: visibilitySchema,
  status: playbookStatusSchema,
  tickers: z.array(z.string()),
  source: z.object({ url: z.string(), title: z.string() }).optional(),
  owner: z.object({ id: z.string(), name: z.string() }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  etag: z.string().describe('Quoted strong ETag, exactly as the ETag header gives it; send it as If-Match.'),
});

const event = z.object({
  id: z.string(),
  type: z.enum([
    'playbook.created',
    'playbook.updated',
    'backtest.completed',
    'execution.started',
    'execution.stopped',
    'catalyst.changed',
  ]),
  playbook_id: z.string(),
  at: z.iso.datetime(),
  data: z
    .record(z.string(), z.unknown())
    .describe('For catalyst.changed: {catalyst_id, ticker, at, status}; playbook_id tracks the ticker.'),
});

/** At most this many tickers in one `listCatalysts` query. */
export const CATALYST_TICKERS_MAX = 50;

const catalyst = z.object({
  id: z.string().max(64),
  ticker: z.string().max(12),
  kind: z.enum(CATALYST_KINDS),
  title: z.string().max(300),
  at: z.string().max(40).describe('A full-date when all_day, else an RFC 3339 date-time.'),
  all_day: z.boolean(),
  status: z.enum(CATALYST_STATUSES),
  session: z.enum(CATALYST_SESSIONS).optional(),
  source_url: z.string().max(2048).optional(),
  playbook_ids: z
    .array(z.string().max(64))
    .max(MAX_CATALYST_PLAYBOOKS)
    .describe("The caller's playbooks that track the ticker, newest first."),
  sequence: z.number().int().min(0).describe('Grows each time the date, time or status changes.'),
  updated_at: z.iso.datetime(),
});

const tickerPerformance = z.object({
  symbol: z.string().max(12),
  currency: z.string().length(3),
  start_price: z.number().positive(),
  last_price: z.number().positive(),
  return: z.number(),
});

const performance = z.object({
  playbook_id: z.string(),
  since: z.string().describe('YYYY-MM-DD: the day the playbook was created.'),
  as_of: z.string().describe('YYYY-MM-DD: the last close used.'),
  return: z
    .number()
    .nullable()
    .describe("Equal-weighted mean of the tickers' returns; null without tickers."),
  benchmark: z.object({ symbol: z.string().max(12), return: z.number() }),
  tickers: z.array(tickerPerformance).max(25),
});

const backtest = z.object({
  id: z.string(),
  playbook_id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  start: z.string().describe('YYYY-MM-DD'),
  end: z.string().describe('YYYY-MM-DD'),
  benchmark: z.string(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  metrics: z
    .object({
      total_return: z.number(),
      benchmark_return: z.number(),
      cagr: z.number(),
      max_drawdown: z.number().max(0),
      sharpe: z.number(),
      volatility: z.number().min(0),
    })
    .nullable()
    .describe('Returns and drawdowns as fractions (0.1234 is 12.34 %); sharpe is a plain ratio.'),
  equity: z
    .array(z.object({ date: z.string(), value: z.number(), benchmark: z.number() }))
    .max(2000)
    .optional()
    .describe(
      'Growth of 1.0 invested at start, dates ascending; only on getBacktest of a completed backtest.',
    ),
  error: problem.partial({ instance: true }).optional(),
});

/** Schemas for components.schemas; request bodies are referenced by these names. */
export const componentSchemas = {
  Problem: problem,
  Playbook: playbook,
  PlaybookList: z.object({
    data: z.array(playbook),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  }),
  Event: event,
  EventList: z.object({ data: z.array(event), has_more: z.boolean(), next_cursor: z.string() }),
  Account: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    plan: z.string(),
    permissions: z.array(z.string()),
    brokerage_linked: z.boolean(),
  }),
  Status: z.object({
    status: z.enum(['operational', 'degraded', 'outage']),
    components: z.array(
      z.object({ name: z.string(), status: z.enum(['operational', 'degraded', 'outage']) }),
    ),
    updated_at: z.iso.datetime(),
  }),
  BatchGetResult: z.object({
    results: z.array(
      z.union([
        z.object({ id: z.string(), status: z.literal(200), playbook }),
        z.object({ id: z.string(), status: z.union([z.literal(403), z.literal(404)]), error: problem }),
      ]),
    ),
  }),
  BacktestQueued: z.object({ id: z.string(), playbook_id: z.string(), status: z.literal('queued') }),
  Backtest: backtest,
  BacktestList: z.object({
    data: z.array(backtest),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  }),
  Catalyst: catalyst,
  CatalystList: z.object({
    data: z.array(catalyst),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  }),
  Performance: performance,
  CheckoutSession: z.object({ checkout_url: z.url() }),
  BrokerageLink: z.object({ link_url: z.url() }),
  CreatePlaybookRequest: createPlaybookBody,
  UpdatePlaybookRequest: updatePlaybookBody,
  BatchGetRequest: batchGetBody,
  RunBacktestRequest: runBacktestBody,
  CheckoutRequest: checkoutBody,
  BrokerageLinkRequest: brokerageLinkBody,
  GraphQLRequest: z.object({
    query: z.string(),
    variables: z.record(z.string(), z.unknown()).nullable().optional(),
    operationName: z.string().nullable().optional(),
  }),
  GraphQLResponse: z.object({
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    errors: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
};

/** Zod issues as the contract's `errors: [{path, message}]`. */
export function issuesToErrors(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys')
      return { path: [path, ...issue.keys].filter(Boolean).join('.'), message: `unknown field` };
    return { path: path || '(body)', message: issue.message };
  });
}
