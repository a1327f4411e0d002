/** Loopback-only test controls under /__admin/, behind the admin token printed at start. */
import { Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_COMPONENTS, type AppEnv, type SandboxContext } from './context';
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
    ]),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

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
  admin.all('*', (c) => problem(c.req.path, 404, 'not_found', 'Unknown admin route.'));
  return admin;
}
