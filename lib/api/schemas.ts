/**
 * Response shapes the contract fixes (CONTRACT.md sections 2 and 3). Unknown keys are dropped,
 * not refused, so a service that adds a field does not break the extension.
 */
import { z } from 'zod';
import { backtestSchema } from '@/lib/contract/backtest';
import { catalystSchema, performanceSchema } from '@/lib/contract/catalyst';
import {
  accountSchema,
  playbookSchema,
  playbookStatusSchema,
  serviceStatusSchema,
  visibilitySchema,
} from '@/lib/contract/service';

// The shapes the wire types name live in lib/contract/service.ts; every name stays importable from here.
export {
  accountSchema,
  playbookSchema,
  playbookStatusSchema,
  serviceStatusSchema,
  visibilitySchema,
} from '@/lib/contract/service';
export type { Account, Playbook, ServiceStatus } from '@/lib/contract/service';
export {
  catalystChangedSchema,
  catalystSchema,
  performanceSchema,
  type Catalyst,
  type CatalystChanged,
  type Performance,
} from '@/lib/contract/catalyst';

export const problemSchema = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  code: z.string().optional(),
  errors: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

/** REST list form: `{data, has_more, next_cursor}`. */
export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), has_more: z.boolean(), next_cursor: z.string().nullable() });
}

export const batchItemSchema = z.discriminatedUnion('status', [
  z.object({ id: z.string(), status: z.literal(200), playbook: playbookSchema }),
  z.object({ id: z.string(), status: z.union([z.literal(403), z.literal(404)]), error: problemSchema }),
]);
export const batchResultSchema = z.object({ results: z.array(batchItemSchema) });
export type BatchItem = z.infer<typeof batchItemSchema>;

export const eventTypeSchema = z.enum([
  'playbook.created',
  'playbook.updated',
  'backtest.completed',
  'execution.started',
  'execution.stopped',
  'catalyst.changed',
]);
// Ids are echoed back (Last-Event-ID, notification ids) and stored: an event with an oversized one is refused.
export const serviceEventSchema = z.object({
  id: z.string().min(1).max(256),
  type: eventTypeSchema,
  playbook_id: z.string().min(1).max(256),
  at: z.string().max(64),
  data: z.unknown(),
});
export type ServiceEvent = z.infer<typeof serviceEventSchema>;

export const backtestQueuedSchema = z.object({
  id: z.string(),
  playbook_id: z.string(),
  status: z.literal('queued'),
});
export const checkoutSessionSchema = z.object({ checkout_url: z.string() });
export const brokerageLinkSchema = z.object({ link_url: z.string() });

/** GraphQL nodes use the REST names in camelCase. */
export const graphQLPlaybookSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  thesis: z.string().optional(),
  visibility: visibilitySchema.or(
    z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(visibilitySchema),
  ),
  status: playbookStatusSchema.or(
    z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(playbookStatusSchema),
  ),
  tickers: z.array(z.string()).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  etag: z.string().optional(),
  owner: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type GraphQLPlaybook = z.infer<typeof graphQLPlaybookSchema>;

export const graphQLConnectionSchema = z.object({
  edges: z.array(z.object({ cursor: z.string(), node: graphQLPlaybookSchema })),
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
});

export const graphQLResponseSchema = z.object({
  data: z.looseObject({}).nullable().optional(),
  errors: z.array(z.looseObject({ message: z.string() })).optional(),
});

/** The response body each known operation returns on success, keyed by operationId. */
export const knownResponseSchemas = {
  getStatus: serviceStatusSchema,
  getAccount: accountSchema,
  listPublicPlaybooks: listPageSchema(playbookSchema),
  listPlaybooks: listPageSchema(playbookSchema),
  listPlaybooksLegacy: listPageSchema(playbookSchema),
  getPlaybook: playbookSchema,
  batchGetPlaybooks: batchResultSchema,
  createPlaybook: playbookSchema,
  updatePlaybook: playbookSchema,
  runBacktest: backtestQueuedSchema,
  listBacktests: listPageSchema(backtestSchema),
  getBacktest: backtestSchema,
  createCheckoutSession: checkoutSessionSchema,
  createBrokerageLink: brokerageLinkSchema,
  listCatalysts: listPageSchema(catalystSchema),
  getPlaybookPerformance: performanceSchema,
  listEvents: listPageSchema(serviceEventSchema),
  graphql: graphQLResponseSchema,
} satisfies Record<string, z.ZodType>;

/** The decoded body type of a known operation; unknown for the rest. */
export type KnownResponseOf<K extends string> = K extends keyof typeof knownResponseSchemas
  ? z.output<(typeof knownResponseSchemas)[K]>
  : unknown;

export function knownResponseSchema(operationId: string): z.ZodType | undefined {
  return Object.hasOwn(knownResponseSchemas, operationId)
    ? (knownResponseSchemas as Record<string, z.ZodType>)[operationId]
    : undefined;
}
