/**
 * The values an operation's JSON body accepts for one property, read from the OpenAPI document
 * (the extension takes operations from the document, never from its own constants): the plans
 * of createCheckoutSession, the providers of createBrokerageLink.
 */
import { resolveLocalRef } from '@/lib/api/operations';

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A node of the document with its local `$ref` followed (own properties only). */
function deref(document: Record<string, unknown>, value: unknown): Record<string, unknown> | undefined {
  return record(resolveLocalRef(document, value));
}

export function bodyEnum(openapi: unknown, operationId: string, property: string): string[] {
  const document = record(openapi);
  const paths = record(document?.paths);
  if (!document || !paths) return [];
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(record(item) ?? {})) {
      const op = record(operation);
      if (op?.operationId !== operationId) continue;
      const content = record(deref(document, op.requestBody)?.content);
      const schema = deref(document, record(content?.['application/json'])?.schema);
      const prop = deref(document, record(schema?.properties)?.[property]);
      const values = Array.isArray(prop?.enum) ? prop.enum : [];
      return values.filter((v): v is string => typeof v === 'string').slice(0, 50);
    }
  }
  return [];
}
