/** Problem+json errors, JSON answers and bounded body reading shared by every API route. */
import type { z } from 'zod';
import type { AppContext } from './context';
import { issuesToErrors, MAX_BODY_BYTES } from './schemas';

export interface ProblemDetails {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

export function problemBody(baseUrl: string, instance: string, p: ProblemDetails): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: `${baseUrl}/problems/${p.code}`,
    title: p.title,
    status: p.status,
    detail: p.detail,
    instance,
    code: p.code,
  };
  if (p.errors) body.errors = p.errors;
  else if (p.status === 400) body.errors = [];
  return body;
}

export function problemResponse(
  baseUrl: string,
  instance: string,
  p: ProblemDetails,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(problemBody(baseUrl, instance, p)), {
    status: p.status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...headers },
  });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
  });
}

export const badRequest = (
  detail: string,
  code = 'invalid_request',
  errors: { path: string; message: string }[] = [],
): ProblemDetails => ({
  status: 400,
  code,
  title: 'Bad request',
  detail,
  errors,
});

export type BodyResult<T> = { ok: true; value: T; raw: unknown } | { ok: false; problem: ProblemDetails };

/** Reads a JSON body of at most 64 KB and validates it; an empty body reads as `{}` when allowed. */
export async function readJsonBody<T>(
  c: AppContext,
  schema: z.ZodType<T>,
  options: { allowEmpty?: boolean } = {},
): Promise<BodyResult<T>> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES)
    return {
      ok: false,
      problem: badRequest(`The body is larger than ${MAX_BODY_BYTES} bytes.`, 'body_too_large', [
        { path: '(body)', message: `larger than ${MAX_BODY_BYTES} bytes` },
      ]),
    };
  const text = await c.req.text();
  if (Buffer.byteLength(text, 'utf8') > MAX_BODY_BYTES)
    return {
      ok: false,
      problem: badRequest(`The body is larger than ${MAX_BODY_BYTES} bytes.`, 'body_too_large', [
        { path: '(body)', message: `larger than ${MAX_BODY_BYTES} bytes` },
      ]),
    };
  let raw: unknown = {};
  if (text.trim().length === 0) {
    if (!options.allowEmpty)
      return {
        ok: false,
        problem: badRequest('A JSON body is required.', 'body_required', [
          { path: '(body)', message: 'required' },
        ]),
      };
  } else {
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (!/^application\/(.+\+)?json\b/.test(type)) {
      return {
        ok: false,
        problem: {
          status: 415,
          code: 'unsupported_media_type',
          title: 'Unsupported media type',
          detail: 'Send the body as application/json.',
        },
      };
    }
    try {
      raw = JSON.parse(text);
    } catch {
      return {
        ok: false,
        problem: badRequest('The body is not valid JSON.', 'invalid_json', [
          { path: '(body)', message: 'not valid JSON' },
        ]),
      };
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      problem: badRequest(
        'The body does not match the schema.',
        'validation_failed',
        issuesToErrors(parsed.error),
      ),
    };
  return { ok: true, value: parsed.data, raw };
}

/** JSON with sorted keys, so that two JSON-equal bodies hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
