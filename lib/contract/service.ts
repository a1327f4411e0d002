/**
 * The service's playbook, account and status shapes (CONTRACT.md sections 2 and 3), which the
 * wire types (./wire.ts) carry to the pages. Unknown keys are dropped, not refused.
 * lib/api/schemas.ts holds the rest of the response shapes and re-exports these.
 */
import { z } from 'zod';
import { VISIBILITIES } from './visibility';

export const visibilitySchema = z.enum(VISIBILITIES);
export const playbookStatusSchema = z.enum(['draft', 'active', 'paused', 'archived']);

export const playbookSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  thesis: z.string(),
  visibility: visibilitySchema,
  status: playbookStatusSchema,
  tickers: z.array(z.string()),
  source: z.object({ url: z.string(), title: z.string() }).optional(),
  owner: z.object({ id: z.string(), name: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
  etag: z.string(),
});
export type Playbook = z.infer<typeof playbookSchema>;

export const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  plan: z.string(),
  permissions: z.array(z.string()),
  brokerage_linked: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const serviceStatusSchema = z.object({
  status: z.enum(['operational', 'degraded', 'outage']),
  components: z.array(z.object({ name: z.string(), status: z.string() })),
  updated_at: z.string(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;
