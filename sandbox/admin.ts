/** Loopback-only test controls under /__admin/, behind the admin token printed at start. */
import { Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_COMPONENTS, type AppEnv, type SandboxContext } from './context';
import { CATALYST_KINDS, CATALYST_SESSIONS, CATALYST_STATUSES, utcDateTime } from './catalystModel';
import { faultConfigSchema } from './faults';
import { isLoopback, jsonResponse, problemResponse, readJsonBody } from './http';

export interface RecordedRequest {
  at: number;
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

const componentStatus = z.enum(['operational', 'degraded', 'outage']);
const statusBody = z
  .object({
    status: componentStatus,
    components: z
      .array(z.object({ name: z.string().min(1).max(80), status: componentStatus }).strict())
      .max(20)
      .optional(),
  })
  .strict();
const revokeBody = z.object({ key: z.string().min(1).max(200) }).strict();
const eventBody = z
  .object({
    playbook_id: z.string().min(1).max(64),
    type: z.enum([
      'playbook.created',
      'playbook.updated',
      'backtest.completed',
      'execution.started',
      'execution.stopped',
      'catalyst.changed',
    ]),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

const fullDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** `at` as stored: a full-date when all-day, else a date-time normalised to UTC whole seconds. */
const catalystAt = z.union([
  fullDate,
  z.iso.datetime({ offset: true }).transform((at) => utcDateTime(Date.parse(at))),
]);
const atMatchesAllDay = (c: { at?: string; all_day?: boolean }) =>
  c.at === undefined || c.all_day === undefined || fullDate.safeParse(c.at).success === c.all_day;
const catalystChangeBody = z
  .object({
    at: catalystAt.optional(),
    all_day: z.boolean().optional(),
    status: z.enum(CATALYST_STATUSES).optional(),
    session: z.enum(CATALYST_SESSIONS).optional(),
    title: z.string().min(1).max(300).optional(),
  })
  .strict()
  .refine((c) => Object.keys(c).length > 0, 'at least one field to change')
  .refine(atMatchesAllDay, { message: 'a full-date exactly when all_day', path: ['at'] });
const catalystCreateBody = z
  .object({
    id: z.string().regex(/^[\w-]{1,64}$/),
    ticker: z.string().regex(/^[A-Z0-9][A-Z0-9.-]{0,11}$/),
    kind: z.enum(CATALYST_KINDS),
    title: z.string().min(1).max(300),
    at: catalystAt,
    all_day: z.boolean(),
    status: z.enum(CATALYST_STATUSES),
    session: z.enum(CATALYST_SESSIONS).optional(),
    source_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
  })
  .strict()
  .refine(atMatchesAllDay, { message: 'a full-date exactly when all_day', path: ['at'] });

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function createAdmin(
  ctx: SandboxContext,
  recorder: { list: () => RecordedRequest[]; clear: () => void },
): Hono<AppEnv> {
  const admin = new Hono<AppEnv>();
  const problem = (path: string, status: number, code: string, detail: string) =>
    problemResponse(ctx.baseUrl, path, { status, code, title: code.replace(/_/g, ' '), detail });

  admin.use('*', async (c, next) => {
    if (!isLoopback(c.env.incoming.socket.remoteAddress))
      return problem(c.req.path, 403, 'loopback_only', 'Admin routes answer loopback clients only.');
    if (!tokenMatches(c.req.header('authorization'), ctx.adminToken))
      return problem(c.req.path, 401, 'admin_token_required', 'Send Authorization: Bearer <admin token>.');
    await next();
  });

  admin.get('/faults', () => jsonResponse(200, ctx.faults.config));
  admin.post('/faults', async (c) => {
    const body = await readJsonBody(c, faultConfigSchema.partial());
    if (!body.ok) return problemResponse(ctx.baseUrl, c.req.path, body.problem);
    ctx.faults.set(body.value);
    return jsonResponse(200, ctx.faults.config);
  });
  admin.delete('/faults', () => {
    ctx.faults.reset();
    return jsonResponse(200, ctx.faults.config);
  });
  admin.get('/requests', () => jsonResponse(200, recorder.list()));
  admin.delete('/requests', () => {
    recorder.clear();
    return new Response(null, { status: 204 });
  });
  admin.post('/status', async (c) => {
    const body = await readJsonBody(c, statusBody);
    if (!body.ok) return problemResponse(ctx.baseUrl, c.req.path, body.problem);
    const components =
      body.value.components ??
      DEFAULT_COMPONENTS.map((name, i) => ({
        name,
        status: i === 0 ? body.value.status : ('operational' as const),
      }));
    ctx.status = { status: body.value.status, components, updated_at: new Date().toISOString() };
    return jsonResponse(200, ctx.status);
  });
  admin.post('/keys/revoke', async (c) => {
    const body = await readJsonBody(c, revokeBody);
    if (!body.ok) return problemResponse(ctx.baseUrl, c.req.path, body.problem);
    if (!ctx.store.revokeApiKey(body.value.key))
      return problem(c.req.path, 404, 'unknown_key', 'No active API key matches.');
    return jsonResponse(200, { revoked: true });
  });
  admin.post('/events', async (c) => {
    const body = await readJsonBody(c, eventBody);
    if (!body.ok) return problemResponse(ctx.baseUrl, c.req.path, body.problem);
    const playbook = ctx.store.getPlaybook(body.value.playbook_id);
    if (!playbook) return problem(c.req.path, 404, 'not_found', 'No such playbook.');
    const event = ctx.store.appendEvent(
      playbook.owner.id,
      body.value.type,
      playbook.id,
      body.value.data ?? { synthetic: true },
    );
    return jsonResponse(201, event);
  });
  // Move, confirm or cancel a catalyst: `sequence` grows when the date, time or status changes, and
  // every user tracking the ticker gets a catalyst.changed event.
  admin.post('/catalysts/:id', async (c) => {
    const body = await readJsonBody(c, catalystChangeBody);
    if (!body.ok) return problemResponse(ctx.baseUrl, c.req.path, body.problem);
    const current = ctx.store.catalysts.get(c.req.param('id'));
    if (!current) return problem(c.req.path, 404, 'not_found', 'No such catalyst.');
    if (!atMatchesAllDay({ at: body.value.at ?? current.at, all_day: body.value.all_day ?? current.all_day }))
      return problem(c.req.path, 400, 'invalid_request', 'at must be a full-date exactly when all_day.');
    return jsonResponse(200, ctx.store.changeCatalyst(current.id, body.value, ctx.now()));
  });
  // A new catalyst (sequence 1), e.g. many due at once for a summary; no event, as if always listed.
  admin.post('/catalysts', async (c) => {
    const body = await readJsonBody(c, catalystCreateBody);
    if (!body.ok) return problemResponse(ctx.baseUrl, c.req.path, body.problem);
    if (ctx.store.catalysts.get(body.value.id))
      return problem(c.req.path, 409, 'conflict', 'A catalyst with this id exists.');
    const record = { ...body.value, sequence: 1, updated_at: utcDateTime(ctx.now()) };
    ctx.store.catalysts.insert(record);
    return jsonResponse(201, ctx.store.catalysts.get(record.id));
  });
  admin.all('*', (c) => problem(c.req.path, 404, 'not_found', 'Unknown admin route.'));
  return admin;
}
