/**
 * The values an operation's JSON body accepts for one property, read from the OpenAPI document
 * (the extension takes operations from the document, never from its own constants): the plans
 * of createCheckoutSession, the providers of createBrokerageLink.
 */
function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function deref(
  document: Record<string, unknown>,
  value: unknown,
  depth = 0,
): Record<string, unknown> | undefined {
  const node = record(value);
  if (!node || depth > 8) return node;
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  let target: unknown = document;
  for (const part of ref.slice(2).split('/'))
    target = record(target)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return deref(document, target, depth + 1);
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
