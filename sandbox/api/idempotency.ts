/**
 * The idempotent write protocol of CONTRACT.md section 3: an Idempotency-Key (a UUID) per write,
 * a replay of the stored answer for the same key and body, 422 for another body, 409 while in flight.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { AppContext, SandboxContext } from '../context';
import type { OperationId } from '../dialect';
import { badRequest, canonicalJson, readJsonBody } from '../http';
import type { User } from '../store';
import type { Routing } from './routing';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The result of a committed write: what the client sees and what a replay returns. */
export interface WriteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Runs one write operation under the protocol; `perform` runs inside the store's transaction. */
export type IdempotentWrite = <T>(
  c: AppContext,
  id: OperationId,
  permission: string,
  schema: z.ZodType<T>,
  perform: (user: User, body: T) => WriteResult,
  options?: { allowEmpty?: boolean },
) => Promise<Response>;

export function createIdempotentWrite(
  ctx: SandboxContext,
  { problem, requireUser }: Routing,
): IdempotentWrite {
  return async (c, id, permission, schema, perform, options = {}) => {
    const user = requireUser(c, permission);
    if (user instanceof Response) return user;
    const rawKey = c.req.header('idempotency-key');
    if (rawKey === undefined)
      return problem(
        c,
        badRequest('Writes need an Idempotency-Key header (a UUID).', 'idempotency_key_required', [
          { path: 'Idempotency-Key', message: 'required' },
        ]),
      );
    const key = rawKey.trim().replace(/^"(.*)"$/, '$1');
    if (!UUID.test(key))
      return problem(
        c,
        badRequest('Idempotency-Key must be a UUID.', 'invalid_idempotency_key', [
          { path: 'Idempotency-Key', message: 'not a UUID' },
        ]),
      );
    const body = await readJsonBody(c, schema, options);
    if (!body.ok) return problem(c, body.problem);
    const bodyHash = createHash('sha256')
      .update(canonicalJson({ path: c.req.path, body: body.raw }))
      .digest('hex');
    const existing = ctx.store.getIdempotency(user.id, id, key);
    if (existing && existing.bodyHash !== bodyHash) {
      return problem(c, {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'Idempotency key reused',
        detail: 'This Idempotency-Key was already used with a different body.',
      });
    }
    if (existing?.state === 'done') {
      return new Response(existing.response.body, {
        status: existing.response.status,
        headers: { ...existing.response.headers, 'Idempotent-Replayed': 'true' },
      });
    }
    if (existing || !ctx.store.claimIdempotency(user.id, id, key, bodyHash)) {
      return problem(
        c,
        {
          status: 409,
          code: 'idempotency_in_flight',
          title: 'Conflict',
          detail: 'A request with this Idempotency-Key is still being processed; retry later.',
        },
        { 'Retry-After': '1' },
      );
    }
    let committed: Response;
    try {
      if (ctx.faults.config.writeHoldMs > 0)
        await sleep(ctx.faults.config.writeHoldMs, undefined, { signal: ctx.closing }).catch(() => undefined);
      committed = ctx.store.transaction(() => {
        const result = perform(user, body.value);
        const isProblem = result.status >= 400;
        const headers = {
          'Content-Type': isProblem ? 'application/problem+json' : 'application/json',
          'Cache-Control': 'no-store',
          ...(result.headers ?? {}),
        };
        const text = JSON.stringify(result.body);
        // A refused write keeps no key, so the client may fix the body and retry with the same one.
        if (isProblem) ctx.store.releaseIdempotency(user.id, id, key);
        else ctx.store.completeIdempotency(user.id, id, key, { status: result.status, headers, body: text });
        return new Response(text, { status: result.status, headers });
      });
    } catch (error) {
      ctx.store.releaseIdempotency(user.id, id, key);
      throw error;
    }
    if (committed.status < 400 && ctx.faults.take('serverErrorAfterCommit')) {
      return problem(c, {
        status: 500,
        code: 'internal_error',
        title: 'Internal server error',
        detail: 'Injected fault: the write committed but the answer was lost.',
      });
    }
    return committed;
  };
}
