/**
 * A minimal check of the OpenAPI document (3.1.x, `servers[0].url`, `paths`) so discovery can
 * report it; operation lookup and everything else belongs to lib/api.
 */
import { t } from '@/lib/i18n';
import { issuesText } from '@/lib/i18n/problems';
import { z } from 'zod';
import { resolveWebUrl } from './urls';

const OpenApiShapeSchema = z.looseObject({
  // Issues are worded by lib/i18n from their codes: no message of ours or zod's reaches the user.
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z
    .looseObject({ title: z.string().max(500).optional(), version: z.string().max(100).optional() })
    .optional(),
  servers: z.array(z.looseObject({ url: z.string().min(1).max(4_096) })).min(1),
  paths: z.record(z.string(), z.unknown()),
});

export interface OpenApiSummary {
  openapi: string;
  title: string;
  version: string;
  /** `servers[0].url` made absolute (it may be relative to the document, and may carry a path prefix). */
  apiUrl: string;
  /** Origin of `apiUrl`: the only origin an API key may be sent to. */
  apiOrigin: string;
  pathCount: number;
}

export class OpenApiFormatError extends Error {
  override name = 'OpenApiFormatError';
}

export function checkOpenApiDocument(json: unknown, documentUrl: string): OpenApiSummary {
  const parsed = OpenApiShapeSchema.safeParse(json);
  if (!parsed.success) {
    throw new OpenApiFormatError(
      t('errors.discovery.openApiUnusable', {
        reason: issuesText(parsed.error.issues).slice(0, 300),
      }),
    );
  }
  const doc = parsed.data;
  const apiUrl = resolveWebUrl(doc.servers[0].url, documentUrl);
  if (!apiUrl) throw new OpenApiFormatError(t('errors.discovery.openApiServer'));
  return {
    openapi: doc.openapi,
    title: doc.info?.title ?? '',
    version: doc.info?.version ?? '',
    apiUrl,
    apiOrigin: new URL(apiUrl).origin,
    pathCount: Object.keys(doc.paths).length,
  };
}
